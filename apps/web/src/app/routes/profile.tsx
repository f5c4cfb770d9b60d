import { BackToDashboard } from '@/components/back-to-dashboard';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { MessagingPreferenceSetting } from '@/features/profile/components/messaging-preference-setting';
import { ProfileDetails } from '@/features/profile/components/profile-details';
import { TimeZoneSetting } from '@/features/profile/components/time-zone-setting';
import { useSignedInUser } from '@/lib/current-user';

/** /profile: who you are, and how Loop texts you. */
export function ProfileRoute() {
  const user = useSignedInUser();
  return (
    <Page className="max-w-2xl">
      <PageTitle>Profile</PageTitle>
      <BackToDashboard />
      <h1 className="text-3xl font-bold tracking-tight">Profile</h1>
      <Card>
        <CardHeader>
          <CardTitle>Your details</CardTitle>
        </CardHeader>
        <CardContent>
          <ProfileDetails user={user} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Notifications</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-6">
          <MessagingPreferenceSetting user={user} />
          <TimeZoneSetting user={user} />
        </CardContent>
      </Card>
    </Page>
  );
}
