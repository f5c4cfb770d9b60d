import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';

/** A photo in a text as a thumbnail; a click opens it large. A broken photo shows an icon. */
export function MessagePhoto({ src, label }: { src: string; label: string }) {
  const [broken, setBroken] = useState(false);
  if (broken) {
    return (
      <div
        role="img"
        aria-label={`${label} could not be loaded`}
        className="flex size-full items-center justify-center rounded-xl border border-dashed bg-muted text-muted-foreground"
      >
        <ImageOff aria-hidden="true" className="size-6" />
      </div>
    );
  }
  return (
    <Dialog>
      <DialogTrigger className="group block size-full overflow-hidden rounded-xl bg-muted outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2">
        <img
          src={src}
          alt={label}
          loading="lazy"
          onError={() => setBroken(true)}
          className="size-full object-cover transition-transform group-hover:scale-[1.03]"
        />
      </DialogTrigger>
      <DialogContent className="max-w-4xl gap-3 p-3 sm:p-4">
        <DialogTitle className="pr-12 text-base">{label}</DialogTitle>
        <DialogDescription className="sr-only">The photo at full size.</DialogDescription>
        <img src={src} alt={label} className="max-h-[calc(100dvh-8rem)] w-full rounded-lg object-contain" />
      </DialogContent>
    </Dialog>
  );
}
