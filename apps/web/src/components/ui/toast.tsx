import { cva, type VariantProps } from 'class-variance-authority';
import { X } from 'lucide-react';
import type { ComponentProps } from 'react';
import { Toast as ToastPrimitive } from 'radix-ui';
import { cn } from '@/lib/cn';

/** docs/product.md#limits-and-timings: a toast shows for 5 s and is swiped right to dismiss; F8 (Radix' default) focuses the area. */
export function ToastProvider(props: ComponentProps<typeof ToastPrimitive.Provider>) {
  return <ToastPrimitive.Provider duration={5000} swipeDirection="right" {...props} />;
}

/**
 * While a dialog is open its buttons sit at the screen's bottom, so the toasts move to the top and, on
 * wide screens, into the margin beside the dialog (at most 32rem wide, centered).
 */
export const toastViewportWithDialogClassName =
  '[body:has([role=dialog][data-state=open])_&]:top-0 [body:has([role=dialog][data-state=open])_&]:bottom-auto lg:[body:has([role=dialog][data-state=open])_&]:max-w-[min(420px,calc(50vw-16rem))]';

/** Bottom of the screen on every size: on phones the top bar's controls stay reachable. */
export function ToastViewport({ className, ...props }: ComponentProps<typeof ToastPrimitive.Viewport>) {
  return (
    <ToastPrimitive.Viewport
      className={cn(
        'fixed right-0 bottom-0 z-[100] flex max-h-dvh w-full flex-col gap-2 p-4 outline-none md:max-w-[420px]',
        toastViewportWithDialogClassName,
        className,
      )}
      {...props}
    />
  );
}

const toastVariants = cva(
  'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-swipe-out data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=move]:transition-none',
  {
    variants: {
      variant: {
        default: 'border-border bg-card text-card-foreground',
        destructive: 'destructive border-destructive bg-destructive text-destructive-foreground',
      },
    },
    defaultVariants: { variant: 'default' },
  },
);

export type ToastVariant = NonNullable<VariantProps<typeof toastVariants>['variant']>;

export function Toast({ className, variant, ...props }: ComponentProps<typeof ToastPrimitive.Root> & VariantProps<typeof toastVariants>) {
  return <ToastPrimitive.Root className={cn(toastVariants({ variant }), className)} {...props} />;
}

export function ToastTitle({ className, ...props }: ComponentProps<typeof ToastPrimitive.Title>) {
  return <ToastPrimitive.Title className={cn('text-sm font-semibold', className)} {...props} />;
}

export function ToastDescription({ className, ...props }: ComponentProps<typeof ToastPrimitive.Description>) {
  return <ToastPrimitive.Description className={cn('text-sm opacity-90', className)} {...props} />;
}

export function ToastAction({ className, ...props }: ComponentProps<typeof ToastPrimitive.Action>) {
  return (
    <ToastPrimitive.Action
      className={cn(
        'inline-flex h-8 shrink-0 items-center justify-center rounded-md border bg-transparent px-3 text-sm font-medium transition-colors outline-none hover:bg-muted focus-visible:ring-2 focus-visible:ring-ring group-[.destructive]:border-white/40 group-[.destructive]:hover:bg-white/10 group-[.destructive]:focus-visible:ring-white',
        className,
      )}
      {...props}
    />
  );
}

export function ToastClose({ className, ...props }: ComponentProps<typeof ToastPrimitive.Close>) {
  return (
    <ToastPrimitive.Close
      aria-label="Close"
      className={cn(
        'absolute top-3 right-3 rounded-md p-1 opacity-70 transition-opacity outline-none hover:opacity-100 focus-visible:opacity-100 focus-visible:ring-2 focus-visible:ring-ring group-[.destructive]:focus-visible:ring-white',
        className,
      )}
      {...props}
    >
      <X aria-hidden="true" className="size-4" />
    </ToastPrimitive.Close>
  );
}
