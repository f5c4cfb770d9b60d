import { CircleAlert, CircleCheck, MailQuestion, MailX } from 'lucide-react';
import type { EmailStatus } from '@loop/shared/constants';
import { cn } from '@/lib/cn';

const STATUSES: Record<Exclude<EmailStatus, 'none'>, { text: string; Icon: typeof MailX; trouble: boolean }> = {
  unconfirmed: { text: 'Check your inbox to confirm', Icon: MailQuestion, trouble: false },
  confirmed: { text: 'Confirmed', Icon: CircleCheck, trouble: false },
  unsubscribed: { text: 'Unsubscribed', Icon: MailX, trouble: false },
  bouncing: { text: 'Bouncing: check the address', Icon: CircleAlert, trouble: true },
};

/** What someone else reads about a member's address (the owner's Members list). */
const OTHERS: Partial<Record<EmailStatus, string>> = {
  unconfirmed: 'Email not confirmed yet',
  confirmed: 'Gets the newsletter by email',
  unsubscribed: 'Unsubscribed from email',
};

/**
 * Where an e-mail address stands, in words: "Check your inbox to confirm", "Unsubscribed",
 * "Bouncing: check the address"; nothing for no address. `others`: said of a member, to the owner.
 */
export function EmailStatusNote({ status, others = false, className }: { status: EmailStatus; others?: boolean; className?: string }) {
  if (status === 'none') return null;
  const { text, Icon, trouble } = STATUSES[status];
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1.5 text-sm',
        trouble ? 'font-medium text-destructive' : 'text-muted-foreground',
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-4 shrink-0" />
      {(others && OTHERS[status]) || text}
    </span>
  );
}
