import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { invites, loops } from '../../db/schema';
import { AppError } from '../../errors';

/** A usable invite with its Loop: 404 when the code is unknown, 410 when it has expired. */
export async function findInvite(db: DbOrTx, code: string, now: Date) {
  const [row] = await db
    .select({ invite: invites, loop: { id: loops.id, name: loops.name, creatorId: loops.creatorId } })
    .from(invites)
    .innerJoin(loops, eq(loops.id, invites.loopId))
    .where(eq(invites.code, code))
    .limit(1);
  if (!row) throw new AppError('not_found', 'This invite link is not valid. Check the link, or ask for a new one.');
  if (row.invite.expiresAt <= now) {
    throw new AppError('gone', "This invite link has expired. Ask the Loop's creator for a new one.");
  }
  return row;
}
