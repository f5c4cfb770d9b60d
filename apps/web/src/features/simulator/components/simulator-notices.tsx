import { Inbox, MailX, PhoneOff, RefreshCw, UsersRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorText } from '@/lib/api-client';

function Notice({
  icon: Icon,
  title,
  children,
  alert = false,
}: {
  icon: typeof PhoneOff;
  title: string;
  children: ReactNode;
  alert?: boolean;
}) {
  return (
    <Card role={alert ? 'alert' : undefined} className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-secondary">
        <Icon aria-hidden="true" className="size-7 text-secondary-foreground" />
      </div>
      <h2 className="text-xl font-semibold">{title}</h2>
      {children}
    </Card>
  );
}

/** Real texts are on (Twilio): the simulator is for staff only. */
export function SimulatorUnavailable() {
  return (
    <Notice icon={PhoneOff} title="The Phone Simulator is off">
      <p className="max-w-md text-muted-foreground">
        Loop is sending real text messages right now, so members text from their own phones and the simulator is only open to Loop staff.
      </p>
      <Button asChild className="mt-2">
        <Link to="/">Go to My Loops</Link>
      </Button>
    </Notice>
  );
}

/** Nobody to play yet. */
export function NoMembersYet() {
  return (
    <Notice icon={UsersRound} title="Create a Loop and add members first">
      <p className="max-w-md text-muted-foreground">
        The simulator plays the phones of the people in your Loops. Once a Loop has members, pick one here to text Loop as they would.
      </p>
      <Button asChild className="mt-2">
        <Link to="/">Go to My Loops</Link>
      </Button>
    </Notice>
  );
}

/** The member list (or, titled so, the e-mail list) failed to load. */
export function PhonesLoadError({
  error,
  onRetry,
  title = 'Failed to load members',
  icon = PhoneOff,
}: {
  error: unknown;
  onRetry: () => void;
  title?: string;
  icon?: typeof PhoneOff;
}) {
  return (
    <Notice icon={icon} title={title} alert>
      <p className="max-w-md text-muted-foreground">{errorText(error)}</p>
      <Button variant="outline" className="mt-2" onClick={onRetry}>
        <RefreshCw aria-hidden="true" />
        Try again
      </Button>
    </Notice>
  );
}

/** Real e-mail is on (SMTP_URL), or the simulator is closed to this person: no Mail Simulator. */
export function MailSimulatorUnavailable() {
  return (
    <Notice icon={MailX} title="The Mail Simulator is off">
      <p className="max-w-md text-muted-foreground">
        Loop is sending real e-mail right now (or real text messages, and the simulators are only open to Loop staff), so e-mails arrive in
        people’s own inboxes.
      </p>
      <Button asChild className="mt-2">
        <Link to="/">Go to My Loops</Link>
      </Button>
    </Notice>
  );
}

/** No e-mail yet. */
export function NoEmailsYet() {
  return (
    <Notice icon={Inbox} title="No e-mails yet">
      <p className="max-w-md text-muted-foreground">
        When someone chooses to get the newsletter by email on their Profile or when joining, the confirmation e-mail Loop sends them shows
        up here, then every newsletter.
      </p>
      <Button asChild variant="outline" className="mt-2">
        <Link to="/profile">Choose e-mail on your Profile</Link>
      </Button>
    </Notice>
  );
}
