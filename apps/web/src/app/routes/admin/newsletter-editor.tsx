import { useParams } from 'react-router';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card } from '@/components/ui/card';
import { NotFoundRoute } from '../not-found';

/** /admin/loops/{loopId}/newsletters/{newsletterId} (staff only): placeholder until the editor lands. */
export function NewsletterEditorRoute() {
  const { loopId = '', newsletterId = '' } = useParams();
  if (!/^\d+$/.test(loopId) || !/^\d+$/.test(newsletterId)) return <NotFoundRoute />;
  return (
    <Page>
      <PageTitle>Edit Newsletter Draft</PageTitle>
      <div className="grid gap-1">
        <h1 className="text-3xl font-bold tracking-tight">Edit Newsletter Draft</h1>
        <p className="text-muted-foreground">Make changes to the newsletter before sending it to loop members</p>
      </div>
      <Card className="p-6 text-muted-foreground">The editor will show here.</Card>
    </Page>
  );
}
