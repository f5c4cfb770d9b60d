import { and, eq, exists, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { parseKeyword } from './inbound/keywords';
import { loops, members, messages, users } from '../db/schema';

/**
 * The one place that decides who may play which phone in the Phone Simulator (decision 0015),
 * beside loop-access.ts for Loops:
 * - who may use it: any signed-in user while Loop runs without Twilio, staff always;
 * - which phones: their own (with its invitations), and the phones of text-only members (no
 *   account, pending or not) of the Loops they own; never another account holder's. Staff may play
 *   every member's phone;
 * - which Loops on a phone: all for staff and for their own phone, else only the Loops they own;
 * - what they may send from someone else's phone: nothing that changes the phone's standing in
 *   Loops that are not theirs, so no STOP or START, and nothing from a phone that opted out
 *   (a YES would lift it): playedPhoneRefusal (decision 0031).
 * A phone you may not play is a 404, the same as one that does not exist.
 * The Mail Simulator shows the e-mails of the same people: emailsVisibleTo.
 */
export interface SimulatorViewer {
  id: number;
  isStaff: boolean;
}

/** Whether this person may use the simulator at all: true, or why not (the route folder's gate answers 403 with it). */
export function simulatorUse(config: Pick<Config, 'messagingProvider'>, viewer: SimulatorViewer): true | string {
  return (
    config.messagingProvider === 'simulator' || viewer.isStaff || 'The phone simulator is for Loop staff while real text messages are on.'
  );
}

/** SQL over `users` and `loops`: the phones (and Loops of each) the viewer may play; undefined for staff (all). */
export function phonesVisibleTo(viewer: SimulatorViewer): SQL | undefined {
  if (viewer.isStaff) return undefined;
  // Their own phone in every Loop it belongs to or is invited to: an account holder added after
  // sign-up says yes by texting YES from it.
  return or(eq(users.id, viewer.id), and(eq(loops.creatorId, viewer.id), isNull(users.passwordHash)));
}

/** Whether Loop keeps its e-mails for the Mail Simulator (no SMTP_URL): else the Mail Simulator is a 404. */
export function isMailSimulated(config: Pick<Config, 'SMTP_URL'>): boolean {
  return !config.SMTP_URL;
}

/**
 * SQL over `messages`: the e-mails a viewer may read in the Mail Simulator, undefined for staff
 * (all). The e-mails of the people whose phones they may play: their own (sent for their account, or by address for nobody in particular),
 * and those of the text-only members of the Loops they own; never another account holder's.
 */
export function emailsVisibleTo(db: Db, viewer: SimulatorViewer): SQL | undefined {
  if (viewer.isStaff) return undefined;
  // The person an e-mail is about: whom it went to, or who sent it in.
  const address = sql`case when ${messages.direction} = 'outbound' then ${messages.toAddress} else ${messages.fromAddress} end`;
  const isTheirs = or(eq(users.id, messages.userId), sql`lower(${users.email}) = lower(${address})`);
  // Their own: sent for their account, or to or from their address for nobody in particular. Mail
  // sent for someone else (a text-only member whose typed address the viewer now holds) stays
  // theirs (decision 0054).
  const own = db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, viewer.id), or(eq(users.id, messages.userId), and(isNull(messages.userId), isTheirs))));
  const played = db
    .select({ id: users.id })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(and(eq(loops.creatorId, viewer.id), isNull(users.passwordHash), isTheirs));
  return or(exists(own), exists(played));
}

/**
 * The Loops whose messages a viewer sees on a phone, and the only ones a text they send from it may
 * reach: null (all) for staff and for their own phone, else the Loops they own.
 */
export async function simulatorScopeFor(db: Db, viewer: SimulatorViewer, phoneUserId: number): Promise<number[] | null> {
  if (viewer.isStaff || phoneUserId === viewer.id) return null;
  const owned = await db.select({ id: loops.id }).from(loops).where(eq(loops.creatorId, viewer.id));
  return owned.map((l) => l.id);
}

/**
 * Why a viewer may not send this text from a phone they play but do not hold (`scope` not null),
 * or null when they may. An opt-out is the phone's, across every Loop, so STOP and START from
 * someone else's phone would reach other owners' Loops; and a phone that opted out takes only its
 * holder's START. The answer is the same whatever other Loops the phone is in.
 */
export function playedPhoneRefusal(
  phone: { firstName: string; optedOut: boolean },
  scope: readonly number[] | null,
  body: string,
): string | null {
  if (scope === null) return null;
  const keyword = parseKeyword(body);
  if (keyword === 'opt_out' || keyword === 'opt_in') {
    return `The Phone Simulator takes STOP and START only from your own phone: from ${phone.firstName}'s they would change texts from every Loop, not just yours. To take ${phone.firstName} out of your Loop, remove them on its Members tab.`;
  }
  if (phone.optedOut) {
    return `${phone.firstName}'s phone replied STOP, so Loop takes nothing from it until its holder texts START. You can't send from it in the Phone Simulator.`;
  }
  return null;
}
