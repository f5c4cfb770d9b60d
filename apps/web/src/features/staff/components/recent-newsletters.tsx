import { ChevronDown, ExternalLink, Newspaper } from 'lucide-react';
import { Fragment, useId, useMemo, useState } from 'react';
import { newsletterPath } from '@loop/shared/newsletters';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { cn } from '@/lib/cn';
import { formatDate } from '@/lib/format-date';
import { renderNewsletter } from '@/lib/render-newsletter';
import { useStaffNewsletters } from '../api/get-staff-newsletters';
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
                          <NewsletterContent id={contentId} markdown={newsletter.content} />
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
 * The newsletter as members read it, not its Markdown: headings, emphasis, photos. Rendered by
 * lib/render-newsletter (HTML in it stays text, only web and /media addresses). Long words
 * wrap anywhere, so the row never widens the table.
 */
function NewsletterContent({ id, markdown }: { id: string; markdown: string }) {
  const html = useMemo(() => renderNewsletter(markdown), [markdown]);
  return (
    <div
      id={id}
      // It scrolls: keyboard users reach it with Tab and scroll it with the arrow keys.
      tabIndex={0}
      role="region"
      aria-label="Newsletter content"
      className="max-h-[28rem] outline-none focus-visible:ring-2 focus-visible:ring-ring overflow-y-auto rounded-lg border bg-card p-4 text-sm leading-relaxed [overflow-wrap:anywhere] [&_a]:text-primary [&_a]:underline [&_blockquote]:border-l-4 [&_blockquote]:pl-3 [&_blockquote]:text-muted-foreground [&_h1]:mt-4 [&_h1]:text-xl [&_h1]:font-bold [&_h2]:mt-4 [&_h2]:text-lg [&_h2]:font-semibold [&_h3]:mt-3 [&_h3]:font-semibold [&_img]:my-1 [&_img]:mr-2 [&_img]:inline-block [&_img]:max-h-48 [&_img]:max-w-full [&_img]:rounded-lg [&_li]:ml-5 [&_ol]:list-decimal [&_p]:my-2 [&_ul]:list-disc [&>:first-child]:mt-0"
      // Safe: see lib/render-newsletter.ts.
      dangerouslySetInnerHTML={{ __html: html }}
    />
  );
}
