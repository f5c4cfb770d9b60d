import { eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { invites, loops, users } from '../../db/schema';
import { AppError } from '../../errors';

const inviter = alias(users, 'inviter');

/** A usable invite with its Loop: 404 when the code is unknown, 410 when it has expired. */
export async function findInvite(db: DbOrTx, code: string, now: Date) {
  const [row] = await db
    .select({
      invite: invites,
      loop: { id: loops.id, name: loops.name, creatorId: loops.creatorId },
      // Who made the link (else the owner), by first name only: names, never how to reach them (decision 0054).
      invitedBy: sql<string | null>`nullif(trim(${inviter.firstName}), '')`,
    })
    .from(invites)
    .innerJoin(loops, eq(loops.id, invites.loopId))
    .leftJoin(inviter, eq(inviter.id, sql`coalesce(${invites.createdById}, ${loops.creatorId})`))
    .where(eq(invites.code, code))
    .limit(1);
  if (!row) throw new AppError('not_found', 'This invite link is not valid. Check the link, or ask for a new one.');
  if (row.invite.expiresAt <= now) {
    throw new AppError('gone', "This invite link has expired. Ask the Loop's creator for a new one.");
  }
  return row;
}
