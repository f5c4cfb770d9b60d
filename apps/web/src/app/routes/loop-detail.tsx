import { MessageSquareText, Newspaper, Settings, UsersRound } from 'lucide-react';
import { useParams } from 'react-router';
import { BackToDashboard } from '@/components/back-to-dashboard';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { PageSpinner } from '@/components/ui/spinner';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { GroupMessagesCard } from '@/features/group-messages/components/group-messages-card';
import { useLoop } from '@/features/loops/api/get-loop';
import { DeleteLoopCard } from '@/features/loops/components/delete-loop-card';
import { LoopHeader } from '@/features/loops/components/loop-header';
import { LoopLoadError } from '@/features/loops/components/loop-load-error';
import { LoopReminders } from '@/features/loops/components/loop-reminders';
import { LoopCoverSetting } from '@/features/loops/components/loop-cover-setting';
import { LoopNewsletters, PausedNotice } from '@/features/loops/components/loop-newsletters';
import { LoopSettings } from '@/features/loops/components/loop-settings';
import { MemberList } from '@/features/loops/components/member-list';
import { NewsletterReview } from '@/features/loops/components/newsletter-review';
import { NewsletterReviewSetting } from '@/features/loops/components/newsletter-review-setting';
import { NewsletterSchedule } from '@/features/loops/components/newsletter-schedule';
import { ReminderSchedule } from '@/features/loops/components/reminder-schedule';
import { UpdateList } from '@/features/loops/components/update-list';
import { NotFoundRoute } from './not-found';

/** Four tabs fit a 375 px screen: below `sm` without their icons, a little tighter. */
const TAB = 'max-sm:px-1 max-sm:text-[13px] max-sm:[&_svg]:hidden';

/** /loops/{id} (numeric): the Loop's members, updates and settings (docs/product.md#loop-detail). */
export function LoopDetailRoute() {
  const { id = '' } = useParams();
  if (!/^\d+$/.test(id) || !Number.isSafeInteger(Number(id))) return <NotFoundRoute />;
  return <LoopDetailPage key={id} id={Number(id)} />;
}

function LoopDetailPage({ id }: { id: number }) {
  const loop = useLoop(id);
  return (
    <Page>
      <PageTitle>{loop.data?.name ?? 'Loop'}</PageTitle>
      <BackToDashboard />
      {loop.isPending ? (
        <PageSpinner />
      ) : loop.isError ? (
        <LoopLoadError error={loop.error} onRetry={() => void loop.refetch()} />
      ) : (
        <>
          <LoopHeader loop={loop.data} />
          {loop.data.paused && <PausedNotice canResume={loop.data.role !== 'member'} />}
          <Tabs defaultValue="members" className="grid gap-5">
            <TabsList>
              <TabsTrigger className={TAB} value="members">
                <UsersRound aria-hidden="true" />
                Members
              </TabsTrigger>
              <TabsTrigger className={TAB} value="updates">
                <MessageSquareText aria-hidden="true" />
                Updates
              </TabsTrigger>
              <TabsTrigger className={TAB} value="newsletter">
                <Newspaper aria-hidden="true" />
                Newsletter
              </TabsTrigger>
              <TabsTrigger className={TAB} value="settings">
                <Settings aria-hidden="true" />
                Settings
              </TabsTrigger>
            </TabsList>
            <TabsContent value="updates" className="grid gap-5">
              <UpdateList loop={loop.data} />
            </TabsContent>
            {/* The coming issue (its owner and staff), then the sent ones and what is due next (everyone). */}
            <TabsContent value="newsletter" className="grid gap-5">
              {loop.data.role !== 'member' && <NewsletterReview loopId={loop.data.id} />}
              <LoopNewsletters loopId={loop.data.id} />
            </TabsContent>
            <TabsContent value="members" className="grid gap-5">
              <MemberList loop={loop.data} />
              {loop.data.role !== 'member' && <GroupMessagesCard loop={loop.data} />}
            </TabsContent>
            <TabsContent value="settings" className="grid gap-5">
              <LoopSettings loop={loop.data} />
              <NewsletterSchedule loop={loop.data} />
              <NewsletterReviewSetting loop={loop.data} />
              <LoopCoverSetting loop={loop.data} />
              <ReminderSchedule loop={loop.data} />
              <LoopReminders loop={loop.data} />
              {(loop.data.role === 'owner' || loop.data.role === 'staff') && <DeleteLoopCard loop={loop.data} />}
            </TabsContent>
          </Tabs>
        </>
      )}
    </Page>
  );
}
