import { useParams } from 'react-router';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card } from '@/components/ui/card';
import { NotFoundRoute } from '../not-found';

/** /admin/loops/{id} (staff only): placeholder until admin Loop detail lands. */
export function AdminLoopRoute() {
  const { id = '' } = useParams();
  if (!/^\d+$/.test(id)) return <NotFoundRoute />;
  return (
    <Page>
      <PageTitle>Loop</PageTitle>
      <h1 className="text-3xl font-bold tracking-tight">Loop</h1>
      <Card className="p-6 text-muted-foreground">Loop information, members, updates and newsletters will show here.</Card>
    </Page>
  );
}
