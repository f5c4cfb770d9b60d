import { ArrowLeft } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router';
import type { SimulatorEmail } from '@loop/shared/simulator';
import { Card } from '@/components/ui/card';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { cn } from '@/lib/cn';
import { formatDateTime } from '@/lib/format-date';
import { emailKindLabel, emailStatusLabel, isEmailTrouble, subjectOf } from '../lib/mail-labels';

/**
 * One e-mail as its reader would get it: the HTML part in a sandboxed frame (`sandbox=""`: no
 * scripts, no forms, no navigation, an origin of its own, so nothing in it reaches this page), the
 * plain-text part, and the header lines (List-Unsubscribe, Message-ID...).
 */
export function MailView({ email }: { email: SimulatorEmail }) {
  const titleId = useId();
  const subject = subjectOf(email);
  const headers = Object.entries(email.headers);
  return (
    <Card className="grid grid-cols-[minmax(0,1fr)] gap-4 p-4 sm:p-6" aria-labelledby={titleId} role="article">
      <Link
        to="/simulator/mail"
        className="inline-flex items-center gap-1.5 text-sm font-semibold text-primary underline-offset-4 hover:underline md:hidden"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All e-mails
      </Link>
      <h2 id={titleId} className="text-xl font-semibold break-words">
        {subject}
      </h2>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1 text-sm">
        <dt className="text-muted-foreground">From</dt>
        <dd className="break-all">{email.from}</dd>
        <dt className="text-muted-foreground">To</dt>
        <dd className="break-all">{email.to}</dd>
        <dt className="text-muted-foreground">Date</dt>
        <dd>
          <time dateTime={email.date}>{formatDateTime(email.date)}</time>
        </dd>
        <dt className="text-muted-foreground">Kind</dt>
        <dd>{emailKindLabel(email.kind)}</dd>
        <dt className="text-muted-foreground">Status</dt>
        <dd className={cn(isEmailTrouble(email) && 'font-medium text-destructive')}>{emailStatusLabel(email.status)}</dd>
      </dl>
      <Tabs defaultValue={email.html === null ? 'text' : 'html'} className="grid grid-cols-[minmax(0,1fr)] gap-3">
        <TabsList aria-label="Show the e-mail as">
          {email.html !== null && <TabsTrigger value="html">Rendered</TabsTrigger>}
          <TabsTrigger value="text">Plain text</TabsTrigger>
          <TabsTrigger value="headers">Headers</TabsTrigger>
        </TabsList>
        {email.html !== null && (
          <TabsContent value="html">
            <iframe
              title={`The e-mail “${subject}” as it shows in an inbox`}
              sandbox=""
              srcDoc={email.html}
              className="h-[70dvh] min-h-96 w-full rounded-lg border border-input bg-white"
            />
          </TabsContent>
        )}
        <TabsContent value="text">
          <pre className="max-h-[70dvh] overflow-auto rounded-lg border border-input bg-muted/40 p-4 font-mono text-sm whitespace-pre-wrap [overflow-wrap:anywhere]">
            {email.text === '' ? '(no plain-text part)' : email.text}
          </pre>
        </TabsContent>
        <TabsContent value="headers">
          {headers.length === 0 ? (
            <p className="text-sm text-muted-foreground">Loop kept no header lines for this e-mail.</p>
          ) : (
            <dl className="grid gap-2 rounded-lg border border-input bg-muted/40 p-4 font-mono text-sm">
              {headers.map(([name, value]) => (
                <div key={name} className="grid gap-0.5">
                  <dt className="font-semibold">{name}</dt>
                  <dd className="break-all text-muted-foreground">{value}</dd>
                </div>
              ))}
            </dl>
          )}
        </TabsContent>
      </Tabs>
    </Card>
  );
}

/** The page before an e-mail is chosen (wide screens only: on a phone the list shows instead). */
export function PickAnEmail() {
  return (
    <Card className="flex min-h-64 flex-col items-center justify-center gap-2 px-8 py-12 text-center">
      <p className="font-semibold">Pick an e-mail</p>
      <p className="text-sm text-muted-foreground">
        Choose one from the list to see it as its reader would, with its plain text and headers.
      </p>
    </Card>
  );
}

/** An address naming an e-mail that is not in the list. */
export function UnknownEmail() {
  return (
    <Card role="alert" className="flex min-h-64 flex-col items-center justify-center gap-2 px-8 py-12 text-center">
      <p className="font-semibold">No such e-mail</p>
      <p className="text-sm text-muted-foreground">It is not among the e-mails you may see here.</p>
      <Link to="/simulator/mail" className="text-sm font-semibold text-primary underline-offset-4 hover:underline">
        Show all e-mails
      </Link>
    </Card>
  );
}
