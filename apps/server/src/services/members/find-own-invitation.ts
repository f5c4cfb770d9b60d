import { and, eq, isNotNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * The membership `membershipId` when it is the signed-in person's and they proved their phone with a
 * texted code, locked for the answer; else a 404 that says no more (it must not tell whether the
 * membership exists, nor whose it is). Runs in the caller's transaction.
 */
export async function findOwnInvitation(tx: DbOrTx, userId: number, membershipId: number) {
  const [row] = await tx
    .select({
      id: members.id,
      status: members.status,
      invitedAt: members.invitedAt,
      invitationWithheld: members.invitationWithheld,
      userId: members.userId,
      phoneNumber: users.phoneNumber,
      loop: { id: loops.id, name: loops.name },
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(and(eq(members.id, membershipId), eq(members.userId, userId), isNotNull(users.phoneProvenAt)))
    .for('update', { of: members });
  if (!row) throw new AppError('not_found', 'Invitation not found. It may have been withdrawn.');
  return row;
}
