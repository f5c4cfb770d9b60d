import { ImageOff } from 'lucide-react';
import { useState } from 'react';
import { photoSrcset, type Photo } from '@loop/shared/media';
import { Dialog, DialogContent, DialogDescription, DialogTitle, DialogTrigger } from '@/components/ui/dialog';
import { cn } from '@/lib/cn';

const SHAPES = {
  /** A square tile in an update's photo grid. */
  square: { box: 'aspect-square rounded-lg', icon: 'size-8' },
  /** Fills the box its parent gives it (a text bubble's thumbnail). */
  fill: { box: 'size-full rounded-xl', icon: 'size-6' },
};

/**
 * A member's photo; a click opens it large. The browser picks the smallest stored size that fills
 * `sizes` (how wide the tile is drawn); width and height keep the layout still while it loads. A
 * photo that fails to load shows an icon instead.
 */
export function PhotoTile({
  photo,
  label,
  sizes,
  shape = 'square',
}: {
  photo: Photo;
  label: string;
  sizes: string;
  shape?: keyof typeof SHAPES;
}) {
  const [broken, setBroken] = useState(false);
  const { box, icon } = SHAPES[shape];
  if (broken) {
    return (
      <div
        role="img"
        aria-label={`${label} could not be loaded`}
        className={cn('flex items-center justify-center border border-dashed bg-muted text-muted-foreground', box)}
      >
        <ImageOff aria-hidden="true" className={icon} />
      </div>
    );
  }
  return (
    <Dialog>
      <DialogTrigger
        className={cn(
          'group block overflow-hidden bg-muted outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2',
          box,
        )}
      >
        <img
          src={photo.url}
          srcSet={photoSrcset(photo)}
          sizes={sizes}
          width={photo.width}
          height={photo.height}
          alt={label}
          loading="lazy"
          decoding="async"
          onError={() => setBroken(true)}
          className="size-full object-cover transition-transform group-hover:scale-[1.03]"
        />
      </DialogTrigger>
      <DialogContent className="max-w-4xl gap-3 p-3 sm:p-4">
        <DialogTitle className="pr-12 text-base">{label}</DialogTitle>
        <DialogDescription className="sr-only">The photo at full size.</DialogDescription>
        <img
          src={photo.url}
          srcSet={photoSrcset(photo)}
          sizes="(min-width: 56rem) 54rem, 100vw"
          width={photo.width}
          height={photo.height}
          alt={label}
          className="max-h-[calc(100dvh-8rem)] w-full rounded-lg object-contain"
        />
      </DialogContent>
    </Dialog>
  );
}
