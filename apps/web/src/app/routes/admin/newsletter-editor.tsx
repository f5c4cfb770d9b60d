import { ArrowLeft } from 'lucide-react';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { useNewsletterPreview } from '@/features/newsletters/api/get-newsletter-preview';
import { LoadErrorCard } from '@/components/load-error-card';
import { NewsletterEditor } from '@/features/newsletters/components/newsletter-editor';
import { NotFoundRoute } from '../not-found';

const isId = (value: string) => /^\d+$/.test(value) && Number.isSafeInteger(Number(value));

/** /admin/loops/{loopId}/newsletters/{newsletterId} (staff only): the draft editor (docs/product.md#newsletter-editor). */
export function NewsletterEditorRoute() {
  const { loopId = '', newsletterId = '' } = useParams();
  if (!isId(loopId) || !isId(newsletterId)) return <NotFoundRoute />;
  return <NewsletterEditorPage key={`${loopId}/${newsletterId}`} loopId={Number(loopId)} newsletterId={Number(newsletterId)} />;
}

function NewsletterEditorPage({ loopId, newsletterId }: { loopId: number; newsletterId: number }) {
  const newsletter = useNewsletterPreview(loopId, newsletterId);
  return (
    <Page>
      <PageTitle>Edit Newsletter Draft</PageTitle>
      <Button asChild variant="ghost" size="sm" className="-ml-3 self-start text-muted-foreground">
        <Link to={`/admin/loops/${loopId}`}>
          <ArrowLeft aria-hidden="true" />
          Back to Loop
        </Link>
      </Button>
      <div className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Edit Newsletter Draft</h1>
        <p className="text-muted-foreground">Make changes to the newsletter before sending it to loop members</p>
      </div>
      {newsletter.isPending ? (
        <PageSpinner />
      ) : newsletter.isError ? (
        <LoadErrorCard title="Failed to load newsletter" error={newsletter.error} onRetry={() => void newsletter.refetch()} />
      ) : (
        <NewsletterEditor newsletter={newsletter.data} />
      )}
    </Page>
  );
}
