import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { members } from '../../db/schema';
import { AppError } from '../../errors';

/** Removes a member from a Loop. Their past updates stay in the Loop's history. */
export async function removeMember(db: Db, options: { loopId: number; creatorId: number; memberId: number }): Promise<void> {
  await db.transaction(async (tx) => {
    const [member] = await tx
      .select({ id: members.id, userId: members.userId })
      .from(members)
      .where(and(eq(members.id, options.memberId), eq(members.loopId, options.loopId)))
      .for('update');
    if (!member) throw new AppError('not_found', 'Member not found. They may have been removed already.');
    if (member.userId === options.creatorId) {
      throw new AppError('bad_request', "The Loop's creator cannot be removed. Delete the Loop instead.");
    }
    await tx.delete(members).where(eq(members.id, member.id));
  });
}
