import { Check, LoaderCircle, MailOpen, RefreshCw, TriangleAlert, X } from 'lucide-react';
import type { Invitation } from '@loop/shared/invitations';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatDate } from '@/lib/format-date';
import { useAnswerInvitation } from '../api/answer-invitation';
import { useInvitations } from '../api/get-invitations';

/**
 * My Loops' invitations: Loops someone added the person's phone to, each accepted or declined on its
 * own (decision 0035). Nothing shows when there are none.
 */
export function InvitationList() {
  const invitations = useInvitations();
  if (invitations.isPending) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
        <LoaderCircle aria-hidden="true" className="size-4 animate-spin text-primary" />
        Loading invitations…
      </p>
    );
  }
  if (invitations.isError) {
    return (
      <Card role="alert" className="flex flex-col items-start gap-3 p-5 sm:flex-row sm:items-center">
        <TriangleAlert aria-hidden="true" className="size-6 shrink-0 text-destructive" />
        <div className="grid min-w-0 flex-1 gap-1">
          <h2 className="font-semibold">Failed to fetch invitations</h2>
          <p className="text-sm break-words text-muted-foreground">{errorText(invitations.error)}</p>
        </div>
        <Button variant="outline" onClick={() => void invitations.refetch()}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </Card>
    );
  }
  if (invitations.data.length === 0) return null;
  return (
    <Card aria-labelledby="invitations-title" role="region" className="border-primary/30">
      <CardHeader className="gap-1">
        <CardTitle id="invitations-title" className="flex items-center gap-2">
          <MailOpen aria-hidden="true" className="size-5 text-primary" />
          Invitations
        </CardTitle>
        <p className="text-sm text-muted-foreground">
          Someone added your phone number to these Loops. You get their texts, and they get yours, only once you accept.
        </p>
      </CardHeader>
      <CardContent>
        <ul className="divide-y rounded-xl border">
          {invitations.data.map((invitation) => (
            <InvitationRow key={invitation.id} invitation={invitation} numbered={lookalikes(invitations.data).has(invitation.id)} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** How an invitation's card names who sent it: their name and, when proven, their phone's last digits (decision 0053). */
function inviterOf(invitation: Invitation): string | null {
  const by = invitation.invitedBy;
  if (!by) return null;
  const name = `${by.firstName} ${by.lastName}`.trim();
  return by.phoneEnd ? `${name} (phone ending ${by.phoneEnd})` : name;
}

/** Invitations whose cards would read alike: each of those also shows its Loop's number. */
function lookalikes(invitations: readonly Invitation[]): Set<number> {
  const seen = new Map<string, number[]>();
  for (const i of invitations) {
    const key = `${i.loop.name}\n${inviterOf(i) ?? ''}`;
    seen.set(key, [...(seen.get(key) ?? []), i.id]);
  }
  return new Set([...seen.values()].filter((ids) => ids.length > 1).flat());
}

function InvitationRow({ invitation, numbered }: { invitation: Invitation; numbered: boolean }) {
  const accept = useAnswerInvitation('accept');
  const decline = useAnswerInvitation('decline');
  const inviter = inviterOf(invitation);
  const name = numbered ? `${invitation.loop.name} (Loop #${invitation.loop.id})` : invitation.loop.name;
  const which = `${name}${inviter ? ` from ${inviter}` : ''}`;
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <p className="font-semibold break-words">{name}</p>
        <p className="text-sm break-words text-muted-foreground">
          {inviter ? `${inviter} invited you` : 'You were invited'} on {formatDate(invitation.invitedAt)}. Answer by{' '}
          {formatDate(invitation.expiresAt)}.
        </p>
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button
          aria-label={`Accept the invitation to ${which}`}
          busy={accept.isPending}
          disabled={decline.isPending}
          onClick={() =>
            accept.mutateAsync(invitation.id).then(
              () => toast({ title: 'Success!', description: "You've successfully joined the loop!" }),
              (error: unknown) => toastError(errorText(error), 'Failed to join loop'),
            )
          }
        >
          <Check aria-hidden="true" />
          Accept
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="outline" disabled={accept.isPending} aria-label={`Decline the invitation to ${which}`}>
              <X aria-hidden="true" />
              Decline
            </Button>
          }
          title={`Decline the invitation to ${name}?`}
          description={`${inviter ?? 'Whoever runs the Loop'} will see that you declined, and Loop will not invite you to this Loop again.`}
          confirmLabel="Decline"
          onConfirm={() =>
            decline.mutateAsync(invitation.id).then(
              () => toast({ title: 'Invitation declined', description: `You won't get texts from ${name}.` }),
              (error: unknown) => {
                toastError(errorText(error), 'Failed to decline invitation');
                throw error;
              },
            )
          }
        />
      </div>
    </li>
  );
}
