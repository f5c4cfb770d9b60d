import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Dialog as DialogPrimitive } from 'radix-ui';
import { cn } from '@/lib/cn';
import { Button } from './button';

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;
export const DialogClose = DialogPrimitive.Close;

export const overlayClassName = 'fixed inset-0 z-50 bg-foreground/40 backdrop-blur-[2px] data-[state=open]:animate-fade-in';

/** Centered panel that fits a phone: at most the screen's height, scrolling inside. */
export const dialogPanelClassName =
  'fixed top-1/2 left-1/2 z-50 grid max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 gap-5 overflow-y-auto overscroll-contain rounded-2xl border bg-card p-5 text-card-foreground shadow-xl outline-none data-[state=open]:animate-pop-in sm:p-6';

export function DialogContent({
  className,
  children,
  hideClose = false,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { hideClose?: boolean }) {
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className={overlayClassName} />
      <DialogPrimitive.Content className={cn(dialogPanelClassName, className)} {...props}>
        {children}
        {!hideClose && (
          <DialogPrimitive.Close
            aria-label="Close"
            className="absolute top-3 right-3 flex size-10 items-center justify-center rounded-lg text-muted-foreground transition-colors outline-none hover:bg-accent hover:text-accent-foreground focus-visible:ring-2 focus-visible:ring-ring"
          >
            <X aria-hidden="true" className="size-5" />
          </DialogPrimitive.Close>
        )}
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

export function DialogHeader({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('grid gap-1.5 pr-10', className)} {...props} />;
}

export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end', className)} {...props} />;
}

export function DialogTitle({ className, ...props }: ComponentProps<typeof DialogPrimitive.Title>) {
  return <DialogPrimitive.Title className={cn('text-xl font-semibold tracking-tight', className)} {...props} />;
}

export function DialogDescription({ className, ...props }: ComponentProps<typeof DialogPrimitive.Description>) {
  return <DialogPrimitive.Description className={cn('text-sm text-muted-foreground', className)} {...props} />;
}

/**
 * Stays at the bottom of a panel that scrolls (a long form in an 800 px window or on a phone), so its
 * buttons are always in view, side by side to take little height. Cancels the panel's bottom and side
 * padding to span it edge to edge; Chromium sticks inside the panel's padding, hence the negative bottom.
 */
export const stickyFooterClassName =
  'sticky -bottom-5 z-10 -mx-5 -mb-5 flex-row justify-end border-t bg-card px-5 pt-3 pb-4 sm:-bottom-6 sm:-mx-6 sm:-mb-6 sm:px-6 sm:pb-6';

/** Cancel (closes the dialog) and the form's submit button, busy while the form submits; `sticky` for long forms. */
export function DialogSubmitFooter({ busy, children, sticky = false }: { busy: boolean; children: string; sticky?: boolean }) {
  return (
    <DialogFooter className={sticky ? stickyFooterClassName : undefined}>
      <DialogClose asChild>
        <Button variant="outline" disabled={busy}>
          Cancel
        </Button>
      </DialogClose>
      <Button type="submit" busy={busy}>
        {children}
      </Button>
    </DialogFooter>
  );
}
