import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { CreateLoopDialog } from '@/features/loops/components/create-loop-dialog';
import { InvitationList } from '@/features/loops/components/invitation-list';
import { LoopList } from '@/features/loops/components/loop-list';
import { useLoops } from '@/features/loops/api/get-loops';
import { useSignedInUser } from '@/lib/current-user';

/** My Loops (signed-in "/"). */
export function DashboardRoute() {
  const user = useSignedInUser();
  // The empty state has its own big Create Loop button.
  const hasLoops = (useLoops().data?.length ?? 0) > 0;
  return (
    <Page>
      <PageTitle>My Loops</PageTitle>
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div className="grid gap-1">
          <h1 className="text-3xl font-bold tracking-tight">My Loops</h1>
          <p className="text-muted-foreground">Hi {user.firstName}! Here is everyone you keep up with.</p>
        </div>
        {hasLoops && <CreateLoopDialog />}
      </div>
      <InvitationList />
      <LoopList />
    </Page>
  );
}
