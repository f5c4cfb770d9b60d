import type { ReactNode } from 'react';
import { Button, type ButtonProps } from '@/components/ui/button';
import { cn } from '@/lib/cn';

/**
 * A row's small action: its icon and word ("Edit"), and for screen readers whom or what it acts
 * on ("Edit Ana Lima"), so a list of rows does not read as a column of identical buttons.
 */
export function NamedActionButton({
  icon,
  label,
  name,
  className,
  ...props
}: Omit<ButtonProps, 'children' | 'size' | 'variant' | 'icon'> & { icon: ReactNode; label: string; name: string }) {
  return (
    <Button variant="ghost" size="sm" className={cn('h-10', className)} icon={icon} {...props}>
      <span>
        {label}
        <span className="sr-only"> {name}</span>
      </span>
    </Button>
  );
}
