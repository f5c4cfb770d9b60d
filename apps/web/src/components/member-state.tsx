import type { LoopMember } from '@loop/shared/loops';
import { cn } from '@/lib/cn';
import { formatDate, formatDateTime } from '@/lib/format-date';

const LABELS: Record<LoopMember['state'], { label: string; className: string }> = {
  active: { label: 'Active', className: 'bg-emerald-100 text-emerald-900' },
  pending: { label: 'Pending', className: 'bg-amber-100 text-amber-900' },
  expired: { label: 'Invitation expired', className: 'bg-muted text-muted-foreground' },
  declined: { label: 'Declined', className: 'bg-muted text-muted-foreground' },
  not_invited: { label: 'Not invited', className: 'bg-rose-100 text-rose-900' },
  opted_out: { label: 'Opted out', className: 'bg-rose-100 text-rose-900' },
  undeliverable: { label: "Can't receive texts", className: 'bg-rose-100 text-rose-900' },
  failing: { label: 'Texts failing', className: 'bg-rose-100 text-rose-900' },
};

/** What a member's state means for the owner, in one short sentence. */
export function memberStateDetail(member: LoopMember): string | null {
  switch (member.state) {
    case 'pending':
      return `Invited ${member.invitedAt ? formatDate(member.invitedAt) : ''}: waiting for them to reply YES.`.replace(' :', ':');
    case 'expired':
      return `Invited ${member.invitedAt ? formatDate(member.invitedAt) : ''}; no YES within 7 days.`.replace(' ;', ';');
    case 'declined':
      return 'Declined the invitation: Loop sends them no more invitations to this Loop.';
    case 'not_invited':
      // A resend is offered once the phone has texted START again.
      return member.resendAt
        ? 'Not invited: this phone had opted out of texts when added. It has texted START since, so you can send the invitation.'
        : 'Not invited: this phone has opted out of texts; they can text START and then YES.';
    case 'opted_out':
      return 'Texted STOP: Loop sends them nothing until they text START.';
    case 'undeliverable':
      return `${member.lastError ?? "Can't receive texts"}: Loop stopped texting this number. If it is wrong, fix it with Edit.`;
    case 'failing':
      return member.lastError;
    case 'active':
      return null;
  }
}

/** A member's state as a small badge (Members tab and the admin Loop detail). */
export function MemberStateBadge({ member, className }: { member: LoopMember; className?: string }) {
  const { label, className: colours } = LABELS[member.state];
  return (
    <span
      className={cn('rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', colours, className)}
      title={member.invitedAt ? `Invited ${formatDateTime(member.invitedAt)}` : undefined}
    >
      {label}
    </span>
  );
}
