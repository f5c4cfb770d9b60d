import { MailX } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { PageSpinner } from '@/components/ui/spinner';
import { useSimulatorMail } from '@/features/simulator/api/get-simulator-mail';
import { MailList } from '@/features/simulator/components/mail-list';
import { MailView, PickAnEmail, UnknownEmail } from '@/features/simulator/components/mail-view';
import { MailSimulatorUnavailable, NoEmailsYet, PhonesLoadError } from '@/features/simulator/components/simulator-notices';
import { ApiError } from '@/lib/api-client';
import { useAppConfig } from '@/lib/app-config';
import { cn } from '@/lib/cn';
import { isStaff, useSignedInUser } from '@/lib/current-user';

/**
 * /simulator/mail: every e-mail Loop would have sent while it runs without SMTP_URL, rendered, with
 * its plain text and headers. Wide screens show the list beside the chosen e-mail; on a phone the
 * list comes first and a chosen e-mail takes the page (?email= in the address).
 */
export function MailSimulatorRoute() {
  const user = useSignedInUser();
  const config = useAppConfig();
  const closed =
    config.data !== undefined && (config.data.mailTransport === 'smtp' || (config.data.messagingProvider === 'twilio' && !isStaff(user)));
  const mail = useSimulatorMail(!config.isPending && !closed);
  const [params] = useSearchParams();
  const chosen = Number.parseInt(params.get('email') ?? '', 10);
  const chosenId = Number.isSafeInteger(chosen) ? chosen : null;
  const forbidden = closed || (mail.error instanceof ApiError && (mail.error.status === 403 || mail.error.status === 404));
  const ready = !forbidden && mail.isSuccess && mail.data.length > 0;
  const selected = mail.data?.find((email) => email.id === chosenId);
  const emailShown = ready && chosenId !== null;

  return (
    <div className="mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 px-4 py-6 md:px-6">
      <PageTitle>Mail Simulator</PageTitle>
      <header className={cn('grid gap-1.5', emailShown && 'sr-only md:not-sr-only')}>
        <h1 className="text-3xl font-bold tracking-tight">Mail Simulator</h1>
        {!forbidden && (
          <p className={cn('max-w-3xl text-muted-foreground', emailShown && 'hidden md:block')}>
            Every e-mail Loop would have sent, as its reader would see it. Without an SMTP server nothing leaves this computer: the e-mails
            stop here. Texts are in the{' '}
            <Link to="/simulator" className="font-medium text-primary underline underline-offset-4">
              Phone Simulator
            </Link>
            .
          </p>
        )}
      </header>
      {forbidden ? (
        <MailSimulatorUnavailable />
      ) : config.isPending || mail.isPending ? (
        <PageSpinner />
      ) : mail.isError ? (
        <PhonesLoadError title="Failed to load e-mails" icon={MailX} error={mail.error} onRetry={() => void mail.refetch()} />
      ) : mail.data.length === 0 ? (
        <NoEmailsYet />
      ) : (
        <div className="grid grid-cols-1 gap-6 md:grid-cols-[minmax(0,320px)_minmax(0,1fr)] md:items-start">
          <MailList
            emails={mail.data}
            selected={chosenId}
            className={cn('md:max-h-[calc(100dvh-12rem)]', emailShown && 'hidden md:flex')}
          />
          <section aria-label="Chosen e-mail" className={cn(!emailShown && 'hidden md:block')}>
            {selected ? <MailView key={selected.id} email={selected} /> : chosenId !== null ? <UnknownEmail /> : <PickAnEmail />}
          </section>
        </div>
      )}
    </div>
  );
}
