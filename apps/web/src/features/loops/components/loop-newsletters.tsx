import { Archive, BellRing, CalendarClock, ExternalLink, Newspaper, PauseCircle } from 'lucide-react';
import { newsletterArchivePath, newsletterPath } from '@loop/shared/newsletters';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { CardSpinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/api-client';
import { formatDate, formatInZone } from '@/lib/format-date';
import { useLoopNewsletters } from '../api/get-loop-newsletters';

/** The Loop's newsletters with links to their pages, and what is due next in the Loop's time zone. */
export function LoopNewsletters({ loopId }: { loopId: number }) {
  const query = useLoopNewsletters(loopId);
  return (
    <Card>
      <CardHeader className="flex flex-row flex-wrap items-center justify-between gap-3">
        <CardTitle>Newsletters</CardTitle>
        {query.data?.newsletters[0] && (
          // The past-issues page, behind any newsletter's link, for the Loop's current members signed in (decisions 0042, 0053).
          <a
            href={newsletterArchivePath(query.data.newsletters[0].urlId)}
            target="_blank"
            rel="noopener noreferrer"
            className="inline-flex items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
          >
            <Archive aria-hidden="true" className="size-4" />
            All past issues
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        {query.isPending ? (
          <CardSpinner />
        ) : query.isError ? (
          <p className="rounded-lg bg-muted p-4 text-muted-foreground">{errorText(query.error) || 'Newsletters could not be loaded.'}</p>
        ) : (
          <>
            {query.data.paused ? (
              <p className="text-sm text-muted-foreground">Nothing is due while the loop is paused.</p>
            ) : (
              <dl className="grid gap-3 text-sm sm:grid-cols-2">
                {[
                  { term: 'Next newsletter', icon: CalendarClock, at: query.data.nextNewsletterAt, none: 'Not scheduled' },
                  { term: 'Next reminder', icon: BellRing, at: query.data.nextReminderAt, none: 'No reminders scheduled' },
                ].map(({ term, icon: Icon, at, none }) => (
                  <div key={term}>
                    <dt className="flex items-start gap-2 text-muted-foreground">
                      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
                      {term}
                    </dt>
                    <dd className="pl-6 font-medium">{at ? formatInZone(at, query.data.timeZone) : none}</dd>
                  </div>
                ))}
              </dl>
            )}
            {query.data.newsletters.length === 0 ? (
              <p className="flex items-center gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
                <Newspaper aria-hidden="true" className="size-5" />
                No newsletters yet.
              </p>
            ) : (
              <ul className="divide-y rounded-xl border">
                {query.data.newsletters.map((newsletter) => (
                  <li key={newsletter.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 p-3">
                    <div className="min-w-0 flex-1">
                      <p className="font-medium break-words">
                        {newsletter.title || (newsletter.kind === 'sneak_peek' ? 'Sneak peek' : 'Newsletter')}
                      </p>
                      <p className="text-sm text-muted-foreground tabular-nums">{formatDate(newsletter.sentAt)}</p>
                      {newsletter.reactions.length > 0 && (
                        // Members' reactions to this issue (decision 0056), as its page shows them.
                        <ul aria-label="Reactions" className="mt-1 flex flex-wrap gap-1.5 text-sm">
                          {newsletter.reactions.map((reaction, i) => (
                            <li key={i} className="rounded-full bg-muted px-2 py-0.5 break-words">
                              {reaction.body} <span className="text-muted-foreground">{reaction.firstName}</span>
                            </li>
                          ))}
                        </ul>
                      )}
                    </div>
                    <a
                      href={newsletterPath(newsletter.urlId)}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="inline-flex items-center gap-1 text-sm font-medium whitespace-nowrap text-primary underline-offset-4 hover:underline"
                    >
                      Read it
                      <ExternalLink aria-hidden="true" className="size-3.5" />
                      <span className="sr-only">
                        : {newsletter.title || 'newsletter'} of {formatDate(newsletter.sentAt)} (opens in a new tab)
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Shown on every screen of a paused Loop (its page, the review page): its owner or staff paused it. */
export function PausedNotice({ canResume }: { canResume: boolean }) {
  return (
    <p role="status" className="flex items-start gap-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-900">
      <PauseCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      {canResume
        ? 'This loop is paused: no reminders or newsletters go out until you resume it in Settings.'
        : 'This loop is paused: no reminders or newsletters go out until its organizer resumes it.'}
    </p>
  );
}
