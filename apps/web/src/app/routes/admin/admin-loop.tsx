import { ArrowLeft } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { PageSpinner } from '@/components/ui/spinner';
import { useStaffLoop } from '@/features/staff/api/get-staff-loop';
import { StaffUpdateList } from '@/features/staff/components/staff-update-list';
import { GroupMessageDialog } from '@/features/group-messages/components/group-message-dialog';
import { LoadErrorCard } from '@/components/load-error-card';
import { LoopInformation } from '@/features/staff/components/loop-information';
import { MemberTable } from '@/features/staff/components/member-table';
import { NewsletterActions } from '@/features/staff/components/newsletter-actions';
import { PastNewsletters } from '@/features/staff/components/past-newsletters';
import { NotFoundRoute } from '../not-found';

/** /admin/loops/{id} (staff only): the Loop as staff see it, and what staff can do with it (docs/product.md#admin-loop-detail). */
export function AdminLoopRoute() {
  const { id = '' } = useParams();
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(Number(id))) return <NotFoundRoute />;
  return <AdminLoopPage key={id} id={Number(id)} />;
}

function AdminLoopPage({ id }: { id: number }) {
  const [allMembers, setAllMembers] = useState(false);
  const loop = useStaffLoop(id, allMembers);
  return (
    <Page>
      <PageTitle>{loop.data?.name ?? 'Loop'}</PageTitle>
      <Button asChild variant="ghost" size="sm" className="-ml-3 self-start text-muted-foreground">
        <Link to="/admin">
          <ArrowLeft aria-hidden="true" />
          Back to Admin Dashboard
        </Link>
      </Button>
      {loop.isPending ? (
        <PageSpinner />
      ) : loop.isError ? (
        <LoadErrorCard title="Failed to load loop details" error={loop.error} onRetry={() => void loop.refetch()} />
      ) : (
        <>
          <div className="flex flex-col gap-4 lg:flex-row lg:items-start lg:justify-between">
            <h1 className="text-3xl font-bold tracking-tight break-words">{loop.data.name}</h1>
            <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap lg:justify-end">
              <GroupMessageDialog loopId={id} loopName={loop.data.name} memberCount={loop.data.memberCount} />
              <NewsletterActions loopId={id} />
            </div>
          </div>
          <LoopInformation loop={loop.data} />
          <MemberTable
            members={loop.data.members}
            total={loop.data.memberCount}
            onShowAll={() => setAllMembers(true)}
            loadingAll={allMembers && loop.isPlaceholderData}
          />
          <StaffUpdateList updates={loop.data.updates} total={loop.data.updateCount} />
          <PastNewsletters loopId={id} newsletters={loop.data.newsletters} />
        </>
      )}
    </Page>
  );
}
