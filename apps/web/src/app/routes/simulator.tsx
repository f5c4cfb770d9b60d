import { Link, useSearchParams } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { PageSpinner } from '@/components/ui/spinner';
import { useSimulatorPhones } from '@/features/simulator/api/get-simulator-phones';
import { PhoneFrame, PickAMember, UnknownPhone } from '@/features/simulator/components/phone-frame';
import { PhoneList } from '@/features/simulator/components/phone-list';
import { PhoneView } from '@/features/simulator/components/phone-view';
import { NoMembersYet, PhonesLoadError, SimulatorUnavailable } from '@/features/simulator/components/simulator-notices';
import { SimulatorTips } from '@/features/simulator/components/simulator-tips';
import { ApiError } from '@/lib/api-client';
import { useAppConfig, useIsMailSimulated } from '@/lib/app-config';
import { cn } from '@/lib/cn';
import { isStaff, useSignedInUser } from '@/lib/current-user';

/**
 * /simulator: play a member's phone. Wide screens show the members beside the phone; on a
 * phone the list comes first and a chosen phone takes the whole screen (?phone= in the address).
 */
export function SimulatorRoute() {
  const user = useSignedInUser();
  const config = useAppConfig();
  const mailSimulated = useIsMailSimulated();
  const realTexts = config.data?.messagingProvider === 'twilio';
  const closed = realTexts && !isStaff(user);
  const phones = useSimulatorPhones(!config.isPending && !closed);
  const [params] = useSearchParams();
  const chosen = params.get('phone');
  const forbidden = closed || (phones.error instanceof ApiError && phones.error.status === 403);
  const ready = !forbidden && phones.isSuccess && phones.data.length > 0;
  const selected = phones.data?.find((phone) => phone.phoneNumber === chosen);
  const phoneShown = ready && chosen !== null;

  return (
    <div className={cn('mx-auto flex w-full max-w-5xl flex-1 flex-col gap-6 md:px-6 md:py-6', !phoneShown && 'px-4 py-6')}>
      <PageTitle>Phone Simulator</PageTitle>
      {/* A chosen phone takes a phone's whole screen, yet the page keeps its heading for screen readers (axe). */}
      <header className={cn('grid gap-1.5', phoneShown && 'sr-only md:not-sr-only')}>
        <h1 className="text-3xl font-bold tracking-tight">Phone Simulator</h1>
        {!forbidden && (
          <p className={cn('max-w-3xl text-muted-foreground', phoneShown && 'hidden md:block')}>
            {realTexts
              ? 'Text Loop as any member and see what Loop texts back. Real texts are on: simulated texts and Loop’s answers to them stay here, but the threads also show the real texts Loop sent.'
              : 'Text Loop as any member of your Loops and see what Loop texts back. It all goes through Loop like a real text, but nothing leaves this computer.'}
            {mailSimulated && (
              <>
                {' '}
                E-mails are in the{' '}
                <Link to="/simulator/mail" className="font-medium text-primary underline underline-offset-4">
                  Mail Simulator
                </Link>
                .
              </>
            )}
          </p>
        )}
      </header>
      {forbidden ? (
        <SimulatorUnavailable />
      ) : config.isPending || phones.isPending ? (
        <PageSpinner />
      ) : phones.isError ? (
        <PhonesLoadError error={phones.error} onRetry={() => void phones.refetch()} />
      ) : phones.data.length === 0 ? (
        <NoMembersYet />
      ) : (
        <div className="grid grid-cols-1 gap-6 md:grid-cols-[minmax(0,280px)_minmax(0,1fr)] md:items-start lg:grid-cols-[280px_400px_minmax(0,1fr)]">
          <PhoneList
            phones={phones.data}
            selected={chosen}
            className={cn('md:col-start-1 md:row-start-1 md:max-h-[calc(100dvh-15rem)] lg:row-span-2', phoneShown && 'hidden md:flex')}
          />
          <section
            aria-label="Simulated phone"
            className={cn('md:col-start-2 md:row-span-2 md:row-start-1', !phoneShown && 'hidden md:block')}
          >
            <PhoneFrame>
              {selected ? <PhoneView key={selected.phoneNumber} phone={selected} /> : chosen ? <UnknownPhone /> : <PickAMember />}
            </PhoneFrame>
          </section>
          <SimulatorTips className={cn('md:col-start-1 md:row-start-2 lg:col-start-3 lg:row-start-1', phoneShown && 'hidden md:block')} />
        </div>
      )}
    </div>
  );
}
