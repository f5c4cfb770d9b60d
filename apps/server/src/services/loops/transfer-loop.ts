import { and, eq } from 'drizzle-orm';
import type { LoopSummary } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { AppError } from '../../errors';
import { getLoopSummary } from './get-loop-summary';

/**
 * Hands a Loop over (decision 0059): one of its members who said yes and has an account becomes
 * its owner, and the owner before stays in it as a co-organizer, in one transaction under a lock
 * on the Loop row, so two hand-overs at once cannot both pass.
 */
export async function transferLoop(db: Db, input: { loopId: number; memberId: number }): Promise<LoopSummary> {
  await db.transaction(async (tx) => {
    const [loop] = await tx.select({ creatorId: loops.creatorId }).from(loops).where(eq(loops.id, input.loopId)).for('update');
    if (!loop) throw new AppError('not_found', 'Loop not found.');
    const [row] = await tx
      .select({ member: members, hasAccount: users.passwordHash })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.id, input.memberId), eq(members.loopId, input.loopId)));
    if (!row) throw new AppError('not_found', 'Member not found. They may have been removed already.');
    if (row.member.userId === loop.creatorId) throw new AppError('bad_request', 'This member owns the Loop already.');
    if (row.member.status !== 'active' || row.hasAccount === null) {
      throw new AppError('conflict', 'The Loop can be handed only to a member who said yes to it and has an account to sign in with.');
    }
    await tx.update(loops).set({ creatorId: row.member.userId }).where(eq(loops.id, input.loopId));
    await tx.update(members).set({ organizer: false }).where(eq(members.id, row.member.id));
    await tx
      .update(members)
      .set({ organizer: true })
      .where(and(eq(members.loopId, input.loopId), eq(members.userId, loop.creatorId)));
  });
  return getLoopSummary(db, input.loopId);
}
