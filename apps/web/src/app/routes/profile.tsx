import { BackToDashboard } from '@/components/back-to-dashboard';
import { Page } from '@/components/page';
import { PageTitle } from '@/components/page-title';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { DeleteAccount } from '@/features/profile/components/delete-account';
import { DownloadMyData } from '@/features/profile/components/download-my-data';
import { NewsletterDeliverySetting } from '@/features/profile/components/newsletter-delivery-setting';
import { MessagingPreferenceSetting } from '@/features/profile/components/messaging-preference-setting';
import { DetailsForm } from '@/features/profile/components/details-form';
import { PasswordForm } from '@/features/profile/components/password-form';
import { PhoneNumberSetting } from '@/features/profile/components/phone-number-setting';
import { PhonePinForm } from '@/features/profile/components/phone-pin-form';
import { TimeZoneSetting } from '@/features/profile/components/time-zone-setting';
import { useSignedInUser } from '@/lib/current-user';

/** /profile: who you are (name, email, phone number, phone PIN, password), how Loop texts you and sends you the newsletter, and your data: download it or delete it. */
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
          <DetailsForm user={user} />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Phone number</CardTitle>
        </CardHeader>
        <CardContent>
          <PhoneNumberSetting user={user} />
        </CardContent>
      </Card>
      {/* The phone line's PIN (decision 0067): for calls to Loop's number. */}
      <Card>
        <CardHeader>
          <CardTitle>Phone PIN</CardTitle>
        </CardHeader>
        <CardContent>
          <PhonePinForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Password</CardTitle>
        </CardHeader>
        <CardContent>
          <PasswordForm />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Notifications</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-6">
          <MessagingPreferenceSetting user={user} />
          <NewsletterDeliverySetting user={user} />
          <TimeZoneSetting user={user} />
        </CardContent>
      </Card>
      {/* Your data (decision 0045): its own section, apart from the details above. */}
      <Card>
        <CardHeader>
          <CardTitle>Download my data</CardTitle>
        </CardHeader>
        <CardContent>
          <DownloadMyData />
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Delete my account</CardTitle>
        </CardHeader>
        <CardContent>
          <DeleteAccount />
        </CardContent>
      </Card>
    </Page>
  );
}
