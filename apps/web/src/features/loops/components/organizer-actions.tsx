import { Crown, ShieldCheck, ShieldOff } from 'lucide-react';
import type { LoopMember } from '@loop/shared/loops';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { NamedActionButton } from '@/components/named-action-button';
import { toast, toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import { useTransferLoop } from '../api/transfer-loop';
import { useUpdateMember } from '../api/update-member';

/**
 * Whether a member can be made an organizer or given the Loop (decision 0059): they said yes and
 * have an account (an active member whose details are their own), and are not the owner.
 */
export function canOrganize(member: LoopMember): boolean {
  return !member.isCreator && member.userId !== null && !member.detailsEditable;
}

/** The owner's (and staff's) "Make organizer" / "Remove organizer" and "Make owner" on a member's row. */
export function OrganizerActions({ loopId, member, name }: { loopId: number; member: LoopMember; name: string }) {
  const update = useUpdateMember(loopId, member.id);
  const transfer = useTransferLoop(loopId);
  if (!canOrganize(member)) return null;
  async function setOrganizer(organizer: boolean) {
    try {
      await update.mutateAsync({ organizer });
      toast({ title: organizer ? `${member.user.firstName} is now an organizer` : `${member.user.firstName} is no longer an organizer` });
    } catch (error) {
      toastError(errorText(error), 'Failed to change organizers');
    }
  }
  return (
    <>
      <NamedActionButton
        icon={member.organizer ? <ShieldOff aria-hidden="true" /> : <ShieldCheck aria-hidden="true" />}
        label={member.organizer ? 'Remove organizer' : 'Make organizer'}
        name={name}
        busy={update.isPending}
        onClick={() => void setOrganizer(!member.organizer)}
      />
      <ConfirmDialog
        trigger={<NamedActionButton icon={<Crown aria-hidden="true" />} label="Make owner" name={name} />}
        title={`Hand the loop to ${name}?`}
        description={`${member.user.firstName} becomes its owner: they alone can delete it or hand it on. You stay in it as an organizer and can still do everything else.`}
        confirmLabel="Hand it over"
        onConfirm={() =>
          transfer.mutateAsync(member.id).then(
            () => toast({ title: `${member.user.firstName} now owns this loop` }),
            (error: unknown) => {
              toastError(errorText(error), 'Failed to hand the loop over');
              throw error;
            },
          )
        }
      />
    </>
  );
}
