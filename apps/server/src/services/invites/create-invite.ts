import { and, eq, gt } from 'drizzle-orm';
import { INVITE_TTL_DAYS } from '@loop/shared/constants';
import type { InviteAnswer } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { invites } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';
import { newToken } from '../../lib/tokens';

/**
 * A new invite link for a Loop: 128 random bits, usable by anyone who has it for 7 days. It
 * replaces the Loop's earlier links, which stop working at once (decision 0053): one live link per
 * Loop, so an owner stops a leaked one by making a new one.
 */
export async function createInvite(db: Db, options: { loopId: number; createdById: number; now: Date }): Promise<InviteAnswer> {
  const code = newToken('invite');
  const expiresAt = new Date(options.now.getTime() + INVITE_TTL_DAYS * DAY_MS);
  return db.transaction(async (tx) => {
    await tx
      .update(invites)
      .set({ expiresAt: options.now })
      .where(and(eq(invites.loopId, options.loopId), gt(invites.expiresAt, options.now)));
    await tx.insert(invites).values({
      loopId: options.loopId,
      code,
      createdById: options.createdById,
      createdAt: options.now,
      expiresAt,
    });
    return { inviteUrl: `/join/${code}`, code, expiresAt: expiresAt.toISOString() };
  });
}
