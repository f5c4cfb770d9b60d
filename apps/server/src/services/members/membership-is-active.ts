import { and, eq, gt, sql, type SQL } from 'drizzle-orm';
import { DAY_MS } from '../../lib/clock';
import { members } from '../../db/schema';

/** A pending membership can be confirmed for this long after its last invitation: the invite link's life. */
export const INVITATION_LIFETIME_MS = 7 * DAY_MS;

/**
 * The consent condition, written once: a membership gets texts, and has texts routed to it, only
 * when the phone's holder said yes (or created the Loop). Every path that texts members or stores
 * a member's text filters `members` with it (decision 0015).
 */
export const membershipIsActive: SQL = sql`${members.status} = 'active'`;

/** A pending membership whose invitation has not expired: a YES can still confirm it. */
export function membershipIsConfirmable(now: Date): SQL {
  const since = new Date(now.getTime() - INVITATION_LIFETIME_MS);
  return and(eq(members.status, 'pending'), gt(members.invitedAt, since)) as SQL;
}
