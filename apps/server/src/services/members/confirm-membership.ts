import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { loops, members } from '../../db/schema';
import { releaseHeldTexts } from '../inbound/held-texts';
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
 * pending, has expired or is gone (nothing changes). Texts they sent while invited are released to
 * the worker (releaseHeldTexts). Runs in the caller's transaction.
 */
export async function confirmMembership(tx: DbOrTx, membershipId: number, now: Date): Promise<ConfirmedMembership | null> {
  const [confirmed] = await tx
    .update(members)
    .set({ status: 'active', confirmedAt: now, invitationWithheld: false })
    .where(and(eq(members.id, membershipId), membershipIsConfirmable(now)))
    .returning({ membershipId: members.id, loopId: members.loopId, userId: members.userId });
  if (!confirmed) return null;
  // What they texted while invited goes to this Loop now.
  await releaseHeldTexts(tx, confirmed.userId, now);
  const [loop] = await tx.select({ name: loops.name }).from(loops).where(eq(loops.id, confirmed.loopId));
  return { membershipId: confirmed.membershipId, loopId: confirmed.loopId, name: loop?.name ?? '' };
}
