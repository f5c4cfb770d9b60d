import type { ComponentProps } from 'react';
import { cn } from '@/lib/cn';

/** The admin dashboard's column, wider for the All Loops table (the top bar keeps its one width, top-bar.tsx). */
export const STAFF_DASHBOARD_WIDTH = 'max-w-7xl';

/** The content column every page sits in. */
export function Page({ className, ...props }: ComponentProps<'div'>) {
  return <div className={cn('mx-auto flex w-full max-w-5xl flex-col gap-6 px-4 py-6 sm:px-6 sm:py-10', className)} {...props} />;
}
