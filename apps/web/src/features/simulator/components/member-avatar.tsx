import { cn } from '@/lib/cn';

/** A member's initials in a circle. */
export function MemberAvatar({ firstName, lastName, className }: { firstName: string; lastName: string; className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={cn(
        'flex size-10 shrink-0 items-center justify-center rounded-full bg-secondary text-sm font-semibold text-secondary-foreground',
        className,
      )}
    >
      {`${firstName.charAt(0)}${lastName.charAt(0)}`.toUpperCase()}
    </span>
  );
}
