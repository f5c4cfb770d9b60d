import { ChevronDown, ExternalLink, Newspaper } from 'lucide-react';
import { Fragment, useId, useState } from 'react';
import type { AdminNewsletter } from '@loop/shared/admin';
import { newsletterPath } from '@loop/shared/newsletters';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format-date';
import { useStaffNewsletters } from '../api/get-staff-newsletters';
import { useRenderedNewsletter } from '@/lib/rendered-newsletter';
import { LoadMoreButton, usePagedRows } from './paged-list';
import { kindLabel, StatusBadge } from '@/components/newsletter-status-badge';

/** Newsletters and sneak peeks of every Loop, newest first; "View Content" opens one at a time. */
export function RecentNewsletters() {
  const newsletters = useStaffNewsletters();
  const [openId, setOpenId] = useState<number | null>(null);
  const baseId = useId();

  const { rows, total } = usePagedRows(newsletters, 'Failed to fetch newsletters');

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-baseline justify-between gap-2">
        <CardTitle>Recent Newsletters</CardTitle>
        {newsletters.isSuccess && (
          <p className="text-sm text-muted-foreground">
            {rows.length < total ? `${rows.length} of ${total.toLocaleString()}` : `${total.toLocaleString()} in all`}
          </p>
        )}
      </CardHeader>
      <CardContent>
        {newsletters.isPending ? (
          <div className="flex justify-center py-8">
            <Spinner />
          </div>
        ) : rows.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
            <Newspaper aria-hidden="true" className="size-5" />
            {newsletters.isError ? 'Newsletters could not be loaded.' : 'No newsletters yet.'}
          </p>
        ) : (
          <Table className="sm:min-w-[640px]" containerClassName="rounded-xl border">
            <TableHeader>
              <TableRow className="bg-muted/50">
                <TableHead>Loop Name</TableHead>
                <TableHead className="hidden sm:table-cell">Sent Date</TableHead>
                <TableHead className="hidden sm:table-cell">Status</TableHead>
                <TableHead className="hidden sm:table-cell">Share Link</TableHead>
                <TableHead className="hidden text-right sm:table-cell">Actions</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((newsletter) => {
                const open = openId === newsletter.id;
                const contentId = `${baseId}-${newsletter.id}`;
                const toggle = () => setOpenId(open ? null : newsletter.id);
                return (
                  <Fragment key={newsletter.id}>
                    <TableRow className={cn(open && 'border-b-0 bg-accent/40')}>
                      <TableCell className="sm:max-w-64">
                        <p className="font-medium break-words sm:truncate">{newsletter.loopName}</p>
                        <p className="text-xs text-muted-foreground">{kindLabel(newsletter.kind)}</p>
                        {/* Phones: the date, status, share link and the button fold in here, the whole name in view. */}
                        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs sm:hidden">
                          <StatusBadge status={newsletter.status} />
                          {newsletter.sentAt && <span className="tabular-nums">{formatDate(newsletter.sentAt)}</span>}
                          <ShareLink
                            urlId={newsletter.urlId}
                            label={`${newsletter.loopName} ${kindLabel(newsletter.kind).toLowerCase()}`}
                          />
                        </div>
                        <ViewContentButton open={open} contentId={contentId} onToggle={toggle} className="mt-2 sm:hidden" />
                      </TableCell>
                      <TableCell className="hidden whitespace-nowrap tabular-nums sm:table-cell">
                        {newsletter.sentAt ? formatDate(newsletter.sentAt) : <span className="text-muted-foreground">Not sent</span>}
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <StatusBadge status={newsletter.status} />
                      </TableCell>
                      <TableCell className="hidden sm:table-cell">
                        <ShareLink urlId={newsletter.urlId} label={`${newsletter.loopName} ${kindLabel(newsletter.kind).toLowerCase()}`} />
                      </TableCell>
                      <TableCell className="hidden text-right sm:table-cell">
                        <ViewContentButton open={open} contentId={contentId} onToggle={toggle} />
                      </TableCell>
                    </TableRow>
                    {open && (
                      <TableRow className="bg-accent/40">
                        <TableCell colSpan={5} className="pt-0">
                          <NewsletterContent id={contentId} newsletter={newsletter} />
                        </TableCell>
                      </TableRow>
                    )}
                  </Fragment>
                );
              })}
            </TableBody>
          </Table>
        )}
        <LoadMoreButton list={newsletters} />
      </CardContent>
    </Card>
  );
}

/** Opens and closes one newsletter's content under its row. */
function ViewContentButton({
  open,
  contentId,
  onToggle,
  className,
}: {
  open: boolean;
  contentId: string;
  onToggle: () => void;
  className?: string;
}) {
  return (
    <Button
      variant="outline"
      size="sm"
      aria-expanded={open}
      aria-controls={open ? contentId : undefined}
      onClick={onToggle}
      className={className}
    >
      View Content
      <ChevronDown aria-hidden="true" className={cn('transition-transform', open && 'rotate-180')} />
    </Button>
  );
}

/** The public page in a new tab: the link members get in their texts. */
function ShareLink({ urlId, label }: { urlId: string; label: string }) {
  return (
    <a
      href={newsletterPath(urlId)}
      target="_blank"
      rel="noopener noreferrer"
      className="inline-flex items-center gap-1 font-medium whitespace-nowrap text-primary underline-offset-4 hover:underline"
    >
      Open link
      <ExternalLink aria-hidden="true" className="size-3.5" />
      <span className="sr-only">: {label} (opens in a new tab)</span>
    </a>
  );
}

/**
 * The newsletter as members read it, not its Markdown: the public page drawn by the server (as the
 * editor's preview is, one renderer and its sanitizer), in a frame that runs no script.
 */
function NewsletterContent({ id, newsletter }: { id: string; newsletter: AdminNewsletter }) {
  const rendered = useRenderedNewsletter(newsletter.loopId, newsletter.id, newsletter.content);
  return (
    <div id={id} role="region" aria-label="Newsletter content" className="rounded-lg border bg-card">
      {rendered.data ? (
        <iframe
          title="Newsletter content"
          srcDoc={rendered.data.html}
          // Same origin, so the page's stylesheet and media load; no scripts at all.
          sandbox="allow-same-origin"
          className="block h-[28rem] w-full rounded-lg bg-white"
        />
      ) : rendered.isError ? (
        <p role="alert" className="p-4 text-sm">
          The newsletter could not be drawn: {rendered.error.message}
        </p>
      ) : (
        <div className="flex justify-center py-8">
          <Spinner />
        </div>
      )}
    </div>
  );
}
