import type { InvitationAnswer } from '@loop/shared/invitations';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { isOptedOut } from '../../messaging/opt-outs';
import { queueWelcomeText } from '../../messaging/outbox';
import { confirmMembership } from './confirm-membership';
import { findOwnInvitation } from './find-own-invitation';
import { INVITATION_LIFETIME_MS } from './membership-is-active';

/**
 * Accept on My Loops: the proven holder of the phone says yes to this one Loop (decision 0035). It
 * confirms that membership only, and the welcome text says what they joined and how to stop.
 * Accepting again answers the same.
 */
export async function acceptInvitation(db: Db, userId: number, membershipId: number, now: Date): Promise<InvitationAnswer> {
  return db.transaction(async (tx) => {
    const own = await findOwnInvitation(tx, userId, membershipId);
    const answer = { id: own.id, loop: own.loop };
    if (own.status === 'active') return { ...answer, status: 'active' };
    if (own.status === 'declined') {
      throw new AppError(
        'conflict',
        'You declined this invitation, so it can no longer be accepted. Ask whoever runs the Loop to invite you again.',
      );
    }
    if (own.invitationWithheld || (await isOptedOut(tx, own.phoneNumber))) {
      throw new AppError(
        'conflict',
        'Your phone has opted out of Loop texts, so you would get nothing from this Loop. Text START to Loop, then reply YES with the Loop’s name to join.',
      );
    }
    if ((own.invitedAt?.getTime() ?? 0) + INVITATION_LIFETIME_MS <= now.getTime()) {
      throw new AppError('conflict', 'This invitation has expired (invitations last 7 days). Ask whoever runs the Loop to send it again.');
    }
    const confirmed = await confirmMembership(tx, own.id, now);
    if (!confirmed) throw new AppError('conflict', 'This invitation can no longer be accepted. Reload the page to see where it stands.');
    await queueWelcomeText(tx, { userId: own.userId, loopId: own.loop.id, loopName: own.loop.name });
    return { ...answer, status: 'active' };
  });
}
