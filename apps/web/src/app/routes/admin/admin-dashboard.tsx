import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card } from '@/components/ui/card';

/** /admin (staff only): placeholder until the admin dashboard lands. */
export function AdminDashboardRoute() {
  return (
    <Page>
      <PageTitle>Admin Dashboard</PageTitle>
      <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
      <Card className="p-6 text-muted-foreground">Stats, growth charts, newsletters and every loop will show here.</Card>
    </Page>
  );
}
