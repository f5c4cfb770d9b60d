import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members } from '../../db/schema';
import { membershipIsConfirmable } from './membership-is-active';

export interface ConfirmedMembership {
  membershipId: number;
  loopId: number;
  name: string;
}

/**
 * Makes one pending, unexpired membership active: its holder said yes to this Loop (a YES that
 * named it or picked it from the "which Loop?" question, or Accept on My Loops). Consent is given
 * to one Loop at a time (decision 0033). Returns the Loop, or null when the membership is not
 * pending, has expired or is gone (nothing changes). Runs in the caller's transaction.
 */
export async function confirmMembership(tx: DbOrTx, membershipId: number, now: Date): Promise<ConfirmedMembership | null> {
  const [confirmed] = await tx
    .update(members)
    .set({ status: 'active', confirmedAt: now, invitationWithheld: false })
    .where(and(eq(members.id, membershipId), membershipIsConfirmable(now)))
    .returning({ membershipId: members.id, loopId: members.loopId });
  if (!confirmed) return null;
  const [loop] = await tx.select({ name: loops.name }).from(loops).where(eq(loops.id, confirmed.loopId));
  return { ...confirmed, name: loop?.name ?? '' };
}
