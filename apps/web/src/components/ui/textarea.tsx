import type { ComponentProps } from 'react';
import { afterPress } from '@/lib/after-press';
import { cn } from '@/lib/cn';

/** A multi-line text field; blur waits for a press to end, as Input does. */
export function Textarea({ className, onBlur, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      className={cn(
        'min-h-24 w-full min-w-0 rounded-lg border border-input bg-card px-3 py-2.5 text-base text-foreground shadow-xs transition-colors outline-none placeholder:text-muted-foreground/80 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive sm:text-sm',
        className,
      )}
      onBlur={onBlur && ((event) => afterPress(() => onBlur(event)))}
      {...props}
    />
  );
}
