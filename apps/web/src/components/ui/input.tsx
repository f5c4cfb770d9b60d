import type { ComponentProps } from 'react';
import { afterPress } from '@/lib/after-press';
import { cn } from '@/lib/cn';

export const inputClassName =
  'h-11 w-full min-w-0 rounded-lg border border-input bg-card px-3 text-base text-foreground shadow-xs transition-colors outline-none placeholder:text-muted-foreground/80 focus-visible:border-ring focus-visible:ring-2 focus-visible:ring-ring/30 disabled:cursor-not-allowed disabled:opacity-60 aria-invalid:border-destructive aria-invalid:focus-visible:ring-destructive/25 sm:text-sm';

/** A text field. Its blur handler (on-blur validation) waits for a press to end: see afterPress. */
export function Input({ className, type = 'text', onBlur, ...props }: ComponentProps<'input'>) {
  return (
    <input
      type={type}
      className={cn(inputClassName, className)}
      onBlur={onBlur && ((event) => afterPress(() => onBlur(event)))}
      {...props}
    />
  );
}
