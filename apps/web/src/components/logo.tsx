import { cn } from '@/lib/cn';

/** The Loop mark: a loop on a terracotta tile (the favicon too). */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" aria-hidden="true" className={cn('size-8', className)}>
      <rect width="32" height="32" rx="8" fill="var(--color-primary)" />
      <path
        d="M10.5 20.5a4.5 4.5 0 1 1 0-9c3 0 4.5 2.25 5.5 4.5s2.5 4.5 5.5 4.5a4.5 4.5 0 1 0 0-9c-3 0-4.5 2.25-5.5 4.5s-2.5 4.5-5.5 4.5Z"
        fill="none"
        stroke="#fff"
        strokeWidth="2.5"
        strokeLinecap="round"
      />
    </svg>
  );
}
