import { cn } from '@/lib/cn';

/** A row of the simulators' lists (members, e-mails): a link, marked while it is the one shown. */
export function listItemLinkClass(current: boolean, layout: string): string {
  return cn(
    'rounded-xl px-3 py-2.5 outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring',
    layout,
    current && 'bg-secondary hover:bg-secondary',
  );
}
