import { INVITE_TTL_DAYS } from '@loop/shared/constants';
import type { InviteAnswer } from '@loop/shared/loops';
import type { Db } from '../../db/client';
import { invites } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';
import { newToken } from '../../lib/tokens';

/** A new invite link for a Loop: 128 random bits, usable by anyone who has it for 7 days. */
export async function createInvite(db: Db, options: { loopId: number; createdById: number; now: Date }): Promise<InviteAnswer> {
  const code = newToken('invite');
  const expiresAt = new Date(options.now.getTime() + INVITE_TTL_DAYS * DAY_MS);
  await db.insert(invites).values({
    loopId: options.loopId,
    code,
    createdById: options.createdById,
    createdAt: options.now,
    expiresAt,
  });
  return { inviteUrl: `/join/${code}`, code, expiresAt: expiresAt.toISOString() };
}
