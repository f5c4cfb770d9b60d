import { Link } from 'react-router';
import type { SimulatorEmail } from '@loop/shared/simulator';
import { Card, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format-date';
import { listItemLinkClass } from '../lib/list-item-link';
import { emailHref, emailKindLabel, emailStatusLabel, isEmailTrouble, subjectOf } from '../lib/mail-labels';

/** Every e-mail, newest first: subject, to whom (or from whom), when, what for and where it stands. */
export function MailList({ emails, selected, className }: { emails: SimulatorEmail[]; selected: number | null; className?: string }) {
  return (
    <Card className={cn('flex flex-col overflow-hidden', className)}>
      <CardHeader className="pb-3 sm:pb-3">
        <CardTitle className="flex items-baseline justify-between gap-2 text-base">
          E-mails
          <span className="text-sm font-normal text-muted-foreground">{emails.length}</span>
        </CardTitle>
      </CardHeader>
      <ul aria-label="E-mails, newest first" className="grid grid-cols-[minmax(0,1fr)] gap-1 overflow-y-auto px-2 pb-2">
        {emails.map((email) => {
          const current = email.id === selected;
          const inbound = email.direction === 'inbound';
          return (
            <li key={email.id}>
              <Link
                to={emailHref(email.id)}
                aria-current={current ? 'page' : undefined}
                className={listItemLinkClass(current, 'grid min-w-0 grid-cols-[minmax(0,1fr)] gap-0.5')}
              >
                <span className="flex items-baseline justify-between gap-2">
                  <span className="min-w-0 font-semibold [overflow-wrap:anywhere]">{subjectOf(email)}</span>
                  <time dateTime={email.date} className="shrink-0 text-xs text-muted-foreground">
                    {formatDateTime(email.date)}
                  </time>
                </span>
                <span className="truncate text-sm text-muted-foreground">{inbound ? `From ${email.from}` : `To ${email.to}`}</span>
                <span className="flex flex-wrap items-center gap-2 text-xs">
                  <span className="rounded-full bg-muted px-2 py-px font-medium text-muted-foreground">{emailKindLabel(email.kind)}</span>
                  <span className={cn('font-medium', isEmailTrouble(email) ? 'text-destructive' : 'text-muted-foreground')}>
                    {emailStatusLabel(email.status)}
                  </span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
