import { eq } from 'drizzle-orm';
import type { InvitationAnswer } from '@loop/shared/invitations';
import type { Db } from '../../db/client';
import { members } from '../../db/schema';
import { AppError } from '../../errors';
import { findOwnInvitation } from './find-own-invitation';

/**
 * Decline on My Loops: the proven holder of the phone says no to this one Loop (decision 0035). The
 * owner sees "Declined" and no invitation to this Loop goes to them again. Declining again answers
 * the same; a Loop they already joined is left alone.
 */
export async function declineInvitation(db: Db, userId: number, membershipId: number): Promise<InvitationAnswer> {
  return db.transaction(async (tx) => {
    const own = await findOwnInvitation(tx, userId, membershipId);
    const answer = { id: own.id, loop: own.loop };
    if (own.status === 'active') {
      throw new AppError('conflict', 'You have already joined this Loop, so there is no invitation to decline.');
    }
    if (own.status === 'pending') await tx.update(members).set({ status: 'declined' }).where(eq(members.id, own.id));
    return { ...answer, status: 'declined' };
  });
}
