import { and, desc, eq, gt, isNotNull } from 'drizzle-orm';
import type { InviteLinkStatus } from '@loop/shared/loops';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { invites, members } from '../../db/schema';
import { DAY_MS } from '../../lib/clock';

const RECENT_MS = 7 * DAY_MS;
const RECENT_MAX = 50;

/**
 * What the owner sees of the Loop's invite links (decision 0053): the live one, and who joined
 * through any of its links in the last week, as they typed their names, so a leaked link shows
 * itself and the owner can stop it by making a new one.
 */
export async function readInviteStatus(
  db: DbOrTx,
  options: { loopId: number; config: Pick<Config, 'JOINS_PER_INVITE_LINK_PER_HOUR' | 'JOINS_PER_INVITE_LINK_PER_DAY'>; now: Date },
): Promise<InviteLinkStatus> {
  const [live] = await db
    .select({ code: invites.code, expiresAt: invites.expiresAt })
    .from(invites)
    .where(and(eq(invites.loopId, options.loopId), gt(invites.expiresAt, options.now)))
    .orderBy(desc(invites.createdAt), desc(invites.id))
    .limit(1);
  const joins = await db
    .select({
      memberId: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      joinedAt: members.createdAt,
      status: members.status,
    })
    .from(members)
    .where(
      and(
        eq(members.loopId, options.loopId),
        isNotNull(members.inviteId),
        gt(members.createdAt, new Date(options.now.getTime() - RECENT_MS)),
      ),
    )
    .orderBy(desc(members.createdAt), desc(members.id))
    .limit(RECENT_MAX);
  return {
    link: live ? { inviteUrl: `/join/${live.code}`, code: live.code, expiresAt: live.expiresAt.toISOString() } : null,
    recentJoins: joins.map((j) => ({ ...j, firstName: j.firstName ?? '', lastName: j.lastName ?? '', joinedAt: j.joinedAt.toISOString() })),
    limits: { perHour: options.config.JOINS_PER_INVITE_LINK_PER_HOUR, perDay: options.config.JOINS_PER_INVITE_LINK_PER_DAY },
  };
}
