import { LinkIcon, UsersRound } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { NewsletterDelivery } from '@loop/shared/constants';
import type { JoinAnswer } from '@loop/shared/loops';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { useInvite } from '@/features/invites/api/get-invite';
import { JoinForm } from '@/features/invites/components/join-form';
import { JoinedCard } from '@/features/invites/components/joined-card';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format-date';

/**
 * /join/{code}: join a Loop with an invite link (docs/product.md#join-a-loop). Success stays here and says what
 * happens next (a text to reply YES to, then what to send), not the marketing page at "/".
 */
export function JoinRoute() {
  const { code = '' } = useParams();
  const invite = useInvite(code);
  const [joined, setJoined] = useState<{
    answer: JoinAnswer;
    phoneNumber: string;
    delivery: { newsletterDelivery: NewsletterDelivery; email: string };
  } | null>(null);
  return (
    <div className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
      <PageTitle>{invite.data ? `Join ${invite.data.loopName}` : 'Join a loop'}</PageTitle>
      {joined ? (
        <JoinedCard answer={joined.answer} phoneNumber={joined.phoneNumber} delivery={joined.delivery} />
      ) : invite.isPending ? (
        <PageSpinner />
      ) : invite.isError ? (
        <Card role="alert" className="w-full max-w-md">
          <CardHeader className="items-center text-center">
            <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-secondary">
              <LinkIcon aria-hidden="true" className="size-6 text-secondary-foreground" />
            </div>
            <h1 className="text-2xl font-bold tracking-tight">This invite link doesn’t work</h1>
            <p className="text-muted-foreground">{errorText(invite.error) || 'Failed to join loop'}</p>
          </CardHeader>
          <CardContent className="grid">
            <Button asChild variant="outline">
              <Link to="/">Go to the home page</Link>
            </Button>
          </CardContent>
        </Card>
      ) : (
        <Card className="w-full max-w-md">
          <CardHeader className="items-center text-center">
            <div className="mb-2 flex size-12 items-center justify-center rounded-full bg-secondary">
              <UsersRound aria-hidden="true" className="size-6 text-secondary-foreground" />
            </div>
            <p className="text-sm font-medium break-words text-muted-foreground">
              {invite.data.invitedBy ? `${invite.data.invitedBy} invited you to join` : 'You’re invited to join'}
            </p>
            <h1 className="text-2xl font-bold tracking-tight break-words">{invite.data.loopName}</h1>
            <p className="text-muted-foreground">Enter your details to join the loop</p>
          </CardHeader>
          <CardContent className="grid gap-4">
            <JoinForm code={code} onJoined={(answer, phoneNumber, delivery) => setJoined({ answer, phoneNumber, delivery })} />
            <p className="text-center text-xs text-muted-foreground">This invite link works until {formatDate(invite.data.expiresAt)}.</p>
          </CardContent>
        </Card>
      )}
    </div>
  );
}
