import { ExternalLink, PencilLine } from 'lucide-react';
import { Link } from 'react-router';
import type { AdminLoopNewsletter, DeliveryCounts } from '@loop/shared/admin';
import { newsletterPath } from '@loop/shared/newsletters';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { useIsSimulatorMode } from '@/lib/app-config';
import { formatDateTime } from '@/lib/format-date';
import { kindLabel, StatusBadge } from '@/components/newsletter-status-badge';

/** "Newsletter of Mar 15, 2026": what each entry is called, from the day it went (or was written). */
function entryTitle(newsletter: AdminLoopNewsletter): string {
  const day = new Date(newsletter.sentAt ?? newsletter.createdAt).toLocaleDateString(undefined, {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
  });
  return `${kindLabel(newsletter.kind)} of ${day}`;
}

/** Drafts to edit, then Past Newsletters (sent ones to view, each with how its texts fared): never mixed. */
export function PastNewsletters({ loopId, newsletters }: { loopId: number; newsletters: AdminLoopNewsletter[] }) {
  const drafts = newsletters.filter((n) => n.status === 'draft');
  const sent = newsletters.filter((n) => n.status !== 'draft');
  return (
    <>
      {drafts.length > 0 && <NewsletterList title={`Drafts (${drafts.length})`} loopId={loopId} newsletters={drafts} />}
      <NewsletterList title={`Past Newsletters (${sent.length})`} loopId={loopId} newsletters={sent} />
    </>
  );
}

function NewsletterList({ title, loopId, newsletters }: { title: string; loopId: number; newsletters: AdminLoopNewsletter[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
      </CardHeader>
      <CardContent>
        {newsletters.length === 0 ? (
          <p className="rounded-lg bg-muted p-4 text-muted-foreground">No newsletters have been generated yet</p>
        ) : (
          <ul className="grid gap-3">
            {newsletters.map((newsletter) => (
              <li key={newsletter.id} className="flex flex-wrap items-center justify-between gap-3 rounded-xl border p-4">
                <div className="grid min-w-0 gap-1.5">
                  <div className="flex flex-wrap items-center gap-2">
                    <p className="font-semibold">{entryTitle(newsletter)}</p>
                    <StatusBadge status={newsletter.status} />
                  </div>
                  <p className="text-sm text-muted-foreground">
                    {newsletter.sentAt ? 'Sent ' : 'Created '}
                    <time dateTime={newsletter.sentAt ?? newsletter.createdAt}>
                      {formatDateTime(newsletter.sentAt ?? newsletter.createdAt)}
                    </time>
                  </p>
                  {newsletter.status === 'sent' && <Delivery counts={newsletter.delivery} />}
                </div>
                {newsletter.status === 'draft' ? (
                  <Button asChild size="sm">
                    <Link to={`/admin/loops/${loopId}/newsletters/${newsletter.id}`}>
                      <PencilLine aria-hidden="true" />
                      Edit Draft
                    </Link>
                  </Button>
                ) : (
                  <Button asChild size="sm" variant="outline">
                    <a href={newsletterPath(newsletter.urlId)} target="_blank" rel="noopener noreferrer">
                      View Newsletter
                      <ExternalLink aria-hidden="true" />
                    </a>
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * How the texts announcing it fared: waiting, handed to the carrier, on the phone, failed. The
 * Phone Simulator has no carrier to report delivery: there "Delivered 0" beside "Sent 5" would
 * read as five lost texts, so it says delivery is not tracked instead.
 */
function Delivery({ counts }: { counts: DeliveryCounts }) {
  const simulated = useIsSimulatorMode();
  const all: [string, number][] = [
    ['Queued', counts.queued],
    ['Sent', counts.sent],
    ['Delivered', counts.delivered],
    ['Failed', counts.failed],
  ];
  // A failed text is still worth showing when there is one.
  const parts = simulated ? all.filter(([label, value]) => label !== 'Delivered' && (label !== 'Failed' || value > 0)) : all;
  const list = (
    <dl aria-label="Delivery" className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
      {parts.map(([label, value]) => (
        <div key={label} className="flex gap-1">
          <dt className="text-muted-foreground">{label}</dt>
          <dd className={label === 'Failed' && value > 0 ? 'font-semibold text-destructive tabular-nums' : 'font-semibold tabular-nums'}>
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
  if (!simulated) return list;
  return (
    <>
      {list}
      <p className="text-sm text-muted-foreground">Delivery is not tracked in simulator mode</p>
    </>
  );
}
