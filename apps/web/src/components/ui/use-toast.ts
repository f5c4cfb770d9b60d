import { useSyncExternalStore, type ReactElement } from 'react';
import type { ToastVariant } from './toast';

// docs/product.md#limits-and-timings: one toast at a time; a dismissed toast leaves the list after 1,000,000 ms
// (shadcn's TOAST_REMOVE_DELAY), long after Radix has animated it away.
const TOAST_LIMIT = 1;
const TOAST_REMOVE_DELAY = 1_000_000;

export interface ToastOptions {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** A <ToastAction altText="..."> for the toast. */
  action?: ReactElement;
}

export interface ToastItem extends ToastOptions {
  id: string;
  open: boolean;
}

let toasts: ToastItem[] = [];
let counter = 0;
const listeners = new Set<() => void>();
const removals = new Map<string, ReturnType<typeof setTimeout>>();

function publish(next: ToastItem[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function scheduleRemoval(id: string) {
  if (removals.has(id)) return;
  removals.set(
    id,
    setTimeout(() => {
      removals.delete(id);
      publish(toasts.filter((item) => item.id !== id));
    }, TOAST_REMOVE_DELAY),
  );
}

/** Closes one toast, or every toast without an id. */
export function dismissToast(id?: string) {
  for (const item of toasts) if (id === undefined || item.id === id) scheduleRemoval(item.id);
  publish(toasts.map((item) => (id === undefined || item.id === id ? { ...item, open: false } : item)));
}

/** Shows a toast from anywhere: `toast({ variant: 'destructive', title: 'Error', description })`. */
export function toast(options: ToastOptions) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  publish([{ ...options, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return { id, dismiss: () => dismissToast(id) };
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The toasts as they are now (what useToast renders). */
export function getToasts(): readonly ToastItem[] {
  return toasts;
}

export function useToast() {
  const current = useSyncExternalStore(subscribe, getToasts, getToasts);
  return { toasts: current, toast, dismiss: dismissToast };
}

/** docs/product.md#messages-on-screen: a failure is a destructive toast titled "Error" with the message, else the fallback. */
export function toastError(message: string | undefined, fallback: string) {
  return toast({ variant: 'destructive', title: 'Error', description: message || fallback });
}
