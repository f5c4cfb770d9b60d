import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import type { LoopCadence } from '../../messaging/text-frequency';
import { membershipIsConfirmable } from './membership-is-active';

export interface ConfirmedLoop {
  id: number;
  name: string;
}

/** A confirmed Loop with what says how often it texts (textFrequency). */
export interface JoinedLoop extends ConfirmedLoop, LoopCadence {}

/**
 * Makes the phone's pending, unexpired memberships active (only those of `loopIds` when given) and
 * returns their Loops by name. Call it when the phone's holder says yes: a YES text, or a sign-up
 * that verified this phone by a texted code. Runs in the caller's transaction.
 */
export async function confirmPendingMemberships(
  tx: DbOrTx,
  phoneNumber: string,
  now: Date,
  options: { loopIds?: readonly number[] } = {},
): Promise<JoinedLoop[]> {
  if (options.loopIds && options.loopIds.length === 0) return [];
  const conditions = [
    membershipIsConfirmable(now),
    inArray(members.userId, tx.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phoneNumber))),
  ];
  if (options.loopIds) conditions.push(inArray(members.loopId, [...options.loopIds]));
  const confirmed = await tx
    .update(members)
    .set({ status: 'active', confirmedAt: now })
    .where(and(...conditions))
    .returning({ loopId: members.loopId });
  if (confirmed.length === 0) return [];
  return tx
    .select({ id: loops.id, name: loops.name, reminderSchedule: loops.reminderSchedule, frequency: loops.frequency })
    .from(loops)
    .where(
      inArray(
        loops.id,
        confirmed.map((c) => c.loopId),
      ),
    )
    .orderBy(asc(sql`lower(${loops.name})`), asc(loops.id));
}
