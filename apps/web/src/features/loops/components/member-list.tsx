import { Clock, Globe, Mail, Phone, Send, Trash2, UsersRound } from 'lucide-react';
import { useState } from 'react';
import type { LoopDetail, LoopMember } from '@loop/shared/loops';
import { DEFAULT_QUIET_HOURS, parseQuietHours } from '@loop/shared/quiet-hours';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { EmailStatusNote } from '@/components/email-status';
import { MemberStateBadge, memberStateDetail } from '@/components/member-state';
import { NamedActionButton } from '@/components/named-action-button';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { formatClockInZone, formatDateTime } from '@/lib/format-date';
import { formatPhoneNumber } from '@/lib/phone-format';
import { useAppConfig } from '@/lib/app-config';
import { countryTextHours, timeZoneLabel } from '@/lib/time-zone';
import { useRemoveMember } from '../api/remove-member';
import { useResendInvitation } from '../api/resend-invitation';
import { AddMemberDialog } from './add-member-dialog';
import { EditMemberDialog } from './edit-member-dialog';
import { OrganizerActions } from './organizer-actions';

/** The Members tab: who is in the Loop; the owner and staff add and remove people. */
export function MemberList({ loop }: { loop: LoopDetail }) {
  const canManage = loop.role !== 'member';
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-center justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle>Members</CardTitle>
          <p className="text-sm text-muted-foreground">
            {loop.members.length === 1 ? '1 person' : `${loop.members.length} people`} in this loop
          </p>
        </div>
        {canManage && <AddMemberDialog loopId={loop.id} />}
      </CardHeader>
      <CardContent>
        {loop.members.length === 0 ? (
          <p className="flex items-center gap-2 rounded-lg bg-muted p-4 text-muted-foreground">
            <UsersRound aria-hidden="true" className="size-5" />
            No members yet.
          </p>
        ) : (
          <ul className="divide-y rounded-xl border">
            {loop.members.map((member) => (
              <MemberRow
                key={member.id}
                loopId={loop.id}
                member={member}
                canManage={canManage}
                canAppoint={loop.role === 'owner' || loop.role === 'staff'}
              />
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/**
 * One member: who they are on the left, the owner's actions under it on a phone and beside it on
 * a wider screen. Every text column may shrink (min-w-0), so a long email or context never widens
 * the page; it wraps or is cut with an ellipsis inside its own box.
 */
function MemberRow({
  loopId,
  member,
  canManage,
  canAppoint,
}: {
  loopId: number;
  member: LoopMember;
  canManage: boolean;
  canAppoint: boolean;
}) {
  const remove = useRemoveMember(loopId);
  const detail = memberStateDetail(member);
  const name = `${member.user.firstName} ${member.user.lastName}`;
  const initials = `${member.user.firstName.charAt(0)}${member.user.lastName.charAt(0)}`.toUpperCase();
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-start sm:gap-3">
      <div className="flex min-w-0 flex-1 items-start gap-3">
        <div
          aria-hidden="true"
          className="flex size-10 shrink-0 items-center justify-center rounded-full bg-secondary text-sm font-semibold text-secondary-foreground"
        >
          {initials}
        </div>
        <div className="grid min-w-0 flex-1 grid-cols-[minmax(0,1fr)] gap-1">
          <p className="flex flex-wrap items-center gap-x-2 gap-y-1 font-semibold break-words">
            <span className="min-w-0 break-words">{name}</span>
            {member.isCreator && (
              <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">Creator</span>
            )}
            {member.organizer && (
              <span className="rounded-full bg-secondary px-2 py-0.5 text-xs font-medium text-secondary-foreground">Organizer</span>
            )}
            {!member.isCreator && <MemberStateBadge member={member} />}
          </p>
          {member.context && <p className="text-sm break-words text-muted-foreground">{member.context}</p>}
          {detail && <p className="text-sm break-words text-muted-foreground">{detail}</p>}
          {member.scheduledFor && (
            <p className="flex items-center gap-1.5 text-sm text-muted-foreground">
              <Clock aria-hidden="true" className="size-3.5 shrink-0" />
              Texts scheduled for {formatClockInZone(member.scheduledFor, member.timeZone)} their time
            </p>
          )}
          {member.deliveryNote && <p className="text-sm break-words text-muted-foreground">{member.deliveryNote}</p>}
          {/* The owner sees whether the newsletter by e-mail reaches them: not confirmed, unsubscribed, bouncing. */}
          {canManage && (member.user.newsletterDelivery !== 'text' || member.user.emailStatus === 'bouncing') && (
            <EmailStatusNote status={member.user.emailStatus} others />
          )}
          {canManage && member.resendAt && <ResendInvitation loopId={loopId} member={member} />}
          <div className="flex min-w-0 flex-wrap gap-x-4 gap-y-1 text-sm text-muted-foreground">
            {/* Only the owner, staff and the member themselves get a phone and e-mail: others see names (decision 0054). */}
            {member.user.phoneNumber && (
              <a
                href={`tel:${member.user.phoneNumber}`}
                className="inline-flex items-center gap-1.5 whitespace-nowrap hover:text-foreground"
              >
                <Phone aria-hidden="true" className="size-3.5" />
                {formatPhoneNumber(member.user.phoneNumber)}
              </a>
            )}
            {member.user.email && (
              <a href={`mailto:${member.user.email}`} className="inline-flex max-w-full min-w-0 items-center gap-1.5 hover:text-foreground">
                <Mail aria-hidden="true" className="size-3.5 shrink-0" />
                <span className="min-w-0 truncate">{member.user.email}</span>
              </a>
            )}
            <span className="inline-flex min-w-0 items-center gap-1.5">
              <Globe aria-hidden="true" className="size-3.5 shrink-0" />
              <span className="sr-only">Time zone: </span>
              <span className="min-w-0 truncate">{timeZoneLabel(member.timeZone)}</span>
            </span>
          </div>
          {member.timeZoneCountry && <CountryTextHours country={member.timeZoneCountry} canManage={canManage} />}
        </div>
      </div>
      {canManage && (
        <div className="-ml-2 flex shrink-0 flex-wrap items-center gap-1 pl-13 sm:ml-0 sm:pl-0">
          <EditMemberDialog loopId={loopId} member={member} />
          {canAppoint && <OrganizerActions loopId={loopId} member={member} name={name} />}
          {!member.isCreator && (
            <ConfirmDialog
              trigger={
                <NamedActionButton
                  icon={<Trash2 aria-hidden="true" />}
                  label="Remove"
                  name={name}
                  className="text-destructive hover:bg-destructive/10 hover:text-destructive"
                />
              }
              title={`Remove ${name}?`}
              description="They will stop getting reminders and newsletters from this loop. Their past updates stay."
              confirmLabel="Remove"
              onConfirm={() =>
                remove.mutateAsync(member.id).then(
                  () => toast({ title: 'Member removed successfully' }),
                  (error: unknown) => {
                    toastError(errorText(error), 'Failed to remove member');
                    throw error;
                  },
                )
              }
            />
          )}
        </div>
      )}
    </li>
  );
}

/** Sends a pending member's invitation again; the server allows one a day and says when the next may go. */
function ResendInvitation({ loopId, member }: { loopId: number; member: LoopMember }) {
  const resend = useResendInvitation(loopId);
  const nextAt = member.resendAt ? new Date(member.resendAt) : null;
  // When the page loaded is good enough: the server has the last word (a 429 that says when).
  const [shownAt] = useState(() => Date.now());
  const waiting = nextAt !== null && nextAt.getTime() > shownAt;
  // No button that cannot be pressed: while the day runs, only when it can be sent again.
  if (waiting) return <p className="text-xs text-muted-foreground">Invitation sent. You can resend it after {formatDateTime(nextAt)}.</p>;
  return (
    <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
      <Button
        variant="outline"
        size="sm"
        className="h-9"
        busy={resend.isPending}
        onClick={() =>
          resend.mutateAsync(member.id).then(
            () => toast({ title: 'Invitation sent again' }),
            (error: unknown) => toastError(errorText(error), 'Failed to resend invitation'),
          )
        }
      >
        <Send aria-hidden="true" />
        Resend invitation
        <span className="sr-only">
          {' '}
          to {member.user.firstName} {member.user.lastName}
        </span>
      </Button>
    </div>
  );
}

/**
 * A member whose phone's country has several zones and nobody chose theirs: texts wait for
 * daytime in all of them (decision 0057). The owner sets the member's zone with Edit.
 */
function CountryTextHours({ country, canManage }: { country: string; canManage: boolean }) {
  const { data: config } = useAppConfig();
  const quiet = config ? config.quietHours : (parseQuietHours(DEFAULT_QUIET_HOURS) ?? null);
  if (!quiet) return null;
  return (
    <p className="flex items-start gap-1.5 text-sm text-muted-foreground">
      <Clock aria-hidden="true" className="mt-0.5 size-3.5 shrink-0" />
      <span>
        {countryTextHours(country, { from: quiet.end, to: quiet.start })}
        {canManage && '. Edit to set their time zone.'}
      </span>
    </p>
  );
}
