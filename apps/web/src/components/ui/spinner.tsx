import { LoaderCircle } from 'lucide-react';
import { cn } from '@/lib/cn';

/** A spinning icon, announced as "Loading" (or `label`). */
export function Spinner({ className, label = 'Loading' }: { className?: string; label?: string }) {
  return (
    <span role="status" className="inline-flex">
      <LoaderCircle aria-hidden="true" className={cn('size-6 animate-spin text-primary', className)} />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** The spinner centered in the page, while a page or the session loads. */
export function PageSpinner() {
  return (
    <div className="flex flex-1 items-center justify-center py-24">
      <Spinner className="size-8" />
    </div>
  );
}

/** The spinner centered in a card, while the card's content loads. */
export function CardSpinner() {
  return (
    <div className="flex justify-center py-4">
      <Spinner />
    </div>
  );
}
