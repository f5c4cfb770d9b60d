import { and, eq, isNull, or, type SQL } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { loops, users } from '../db/schema';

/**
 * The one place that decides who may play which phone in the Phone Simulator (decision 0015),
 * beside loop-access.ts for Loops:
 * - who may use it: any signed-in user while Loop runs without Twilio, staff always;
 * - which phones: their own (with its invitations), and the phones of text-only members (no
 *   account, pending or not) of the Loops they own; never another account holder's. Staff may play
 *   every member's phone;
 * - which Loops on a phone: all for staff and for their own phone, else only the Loops they own.
 * A phone you may not play is a 404, the same as one that does not exist.
 */
export interface SimulatorViewer {
  id: number;
  isPrivileged: boolean;
}

/** Whether this person may use the simulator at all: true, or why not (the route folder's gate answers 403 with it). */
export function simulatorUse(config: Pick<Config, 'messagingProvider'>, viewer: SimulatorViewer): true | string {
  return (
    config.messagingProvider === 'simulator' ||
    viewer.isPrivileged ||
    'The phone simulator is for Loop staff while real text messages are on.'
  );
}

/** SQL over `users` and `loops`: the phones (and Loops of each) the viewer may play; undefined for staff (all). */
export function phonesVisibleTo(viewer: SimulatorViewer): SQL | undefined {
  if (viewer.isPrivileged) return undefined;
  // Their own phone in every Loop it belongs to or is invited to: an account holder added after
  // sign-up says yes by texting YES from it.
  return or(eq(users.id, viewer.id), and(eq(loops.creatorId, viewer.id), isNull(users.passwordHash)));
}

/**
 * The Loops whose messages a viewer sees on a phone, and the only ones a text they send from it may
 * reach: null (all) for staff and for their own phone, else the Loops they own.
 */
export async function simulatorScopeFor(db: Db, viewer: SimulatorViewer, phoneUserId: number): Promise<number[] | null> {
  if (viewer.isPrivileged || phoneUserId === viewer.id) return null;
  const owned = await db.select({ id: loops.id }).from(loops).where(eq(loops.creatorId, viewer.id));
  return owned.map((l) => l.id);
}
