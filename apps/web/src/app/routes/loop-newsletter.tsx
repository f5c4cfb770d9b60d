import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { LoadErrorCard } from '@/components/load-error-card';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { useNewsletterPreview } from '@/features/newsletters/api/get-newsletter-preview';
import { NewsletterEditor } from '@/features/newsletters/components/newsletter-editor';
import { useLoopNewsletters } from '@/features/loops/api/get-loop-newsletters';
import { PausedNotice } from '@/features/loops/components/loop-newsletters';
import { NewUpdatesNotice } from '@/features/loops/components/new-updates-notice';
import { draftState, ReviewActions } from '@/features/loops/components/newsletter-review';
import { NotFoundRoute } from './not-found';

const isId = (value: string) => /^\d+$/.test(value) && Number.isSafeInteger(Number(value));

/**
 * /loops/{loopId}/newsletters/{newsletterId}: the owner's review of a draft (decision 0040; staff
 * too), the page the review texts link to: where it stands, Approve / Send now / Move / Skip, and
 * the newsletter editor with its preview.
 */
export function LoopNewsletterRoute() {
  const { id = '', newsletterId = '' } = useParams();
  if (!isId(id) || !isId(newsletterId)) return <NotFoundRoute />;
  return <LoopNewsletterPage key={`${id}/${newsletterId}`} loopId={Number(id)} newsletterId={Number(newsletterId)} />;
}

function LoopNewsletterPage({ loopId, newsletterId }: { loopId: number; newsletterId: number }) {
  const newsletter = useNewsletterPreview(loopId, newsletterId);
  const info = useLoopNewsletters(loopId);
  return (
    <Page>
      <PageTitle>Review Newsletter</PageTitle>
      <Button asChild variant="ghost" size="sm" className="-ml-3 self-start text-muted-foreground">
        <Link to={`/loops/${loopId}`}>
          <ArrowLeft aria-hidden="true" />
          Back to Loop
        </Link>
      </Button>
      <div className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Review Newsletter</h1>
        <p className="text-muted-foreground">Read it, change it, then approve it, send it, move it or skip this issue.</p>
      </div>
      {newsletter.isPending || info.isPending ? (
        <PageSpinner />
      ) : newsletter.isError ? (
        <LoadErrorCard title="Failed to load newsletter" error={newsletter.error} onRetry={() => void newsletter.refetch()} />
      ) : info.isError ? (
        <LoadErrorCard title="Failed to load the loop" error={info.error} onRetry={() => void info.refetch()} />
      ) : (
        <>
          {info.data.paused && <PausedNotice canResume />}
          {newsletter.data.status === 'draft' && (
            <Card>
              <CardContent className="grid gap-4 pt-5 sm:pt-6">
                <p className="text-sm font-medium" aria-live="polite">
                  {newsletter.data.skippedAt ? 'This issue was skipped: nobody gets it.' : draftState(newsletter.data, info.data)}
                </p>
                <NewUpdatesNotice loopId={loopId} info={info.data} draft={newsletter.data} />
                <ReviewActions info={info.data} draft={newsletter.data} />
              </CardContent>
            </Card>
          )}
          <NewsletterEditor newsletter={newsletter.data} sentPath={`/loops/${newsletter.data.loopId}`} />
        </>
      )}
    </Page>
  );
}
