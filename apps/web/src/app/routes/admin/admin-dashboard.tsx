import { STAFF_DASHBOARD_WIDTH, Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { PageSpinner } from '@/components/ui/spinner';
import { useStaffStats } from '@/features/staff/api/get-staff-stats';
import { AllLoops } from '@/features/staff/components/all-loops';
import { GrowthChart } from '@/features/staff/components/growth-chart';
import { LoadErrorCard } from '@/components/load-error-card';
import { RecentNewsletters } from '@/features/staff/components/recent-newsletters';
import { StatCards } from '@/features/staff/components/stat-cards';

/** /admin (staff only): totals, growth, recent newsletters and every Loop (docs/product.md#admin-dashboard). */
export function AdminDashboardRoute() {
  const stats = useStaffStats();

  // Wider than other pages: the All Loops table has seven columns.
  return (
    <Page className={STAFF_DASHBOARD_WIDTH}>
      <PageTitle>Admin Dashboard</PageTitle>
      <h1 className="text-3xl font-bold tracking-tight">Admin Dashboard</h1>
      {stats.isPending ? (
        <PageSpinner />
      ) : stats.isError ? (
        <LoadErrorCard title="Failed to load admin dashboard" error={stats.error} onRetry={() => void stats.refetch()} />
      ) : (
        <>
          <StatCards
            totalLoops={stats.data.totalLoops ?? 0}
            totalMembers={stats.data.totalMembers ?? 0}
            totalUpdates={stats.data.totalUpdates ?? 0}
          />
          <div className="grid gap-5 lg:grid-cols-2">
            <GrowthChart title="Loop Growth" points={stats.data.loopGrowth ?? []} />
            <GrowthChart title="Member Growth" points={stats.data.memberGrowth ?? []} />
          </div>
          <RecentNewsletters />
          <AllLoops />
        </>
      )}
    </Page>
  );
}
