import { useParams } from 'react-router';
import { BackToDashboard } from '@/components/back-to-dashboard';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card } from '@/components/ui/card';
import { NotFoundRoute } from './not-found';

/** /loops/{id} (numeric): placeholder until Loop detail lands. */
export function LoopDetailRoute() {
  const { id = '' } = useParams();
  if (!/^\d+$/.test(id)) return <NotFoundRoute />;
  return (
    <Page>
      <PageTitle>Loop</PageTitle>
      <BackToDashboard />
      <h1 className="text-3xl font-bold tracking-tight">Loop</h1>
      <Card className="p-6 text-muted-foreground">Members, updates and settings of this loop will show here.</Card>
    </Page>
  );
}
