import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messages, users } from '../../db/schema';
import { INVITATION_LIFETIME_MS } from '../members/membership-is-active';

/** Why a text from a person invited but not yet in was kept: releaseHeldTexts finds it by this. */
export const HELD_FOR_YES = 'Held: this person is invited but has not said YES; it goes to the Loop they join.';

/**
 * The texts a person sent while invited and not yet in (HELD_FOR_YES, within an invitation's
 * lifetime), handed back to the worker once they joined a Loop (a YES by text or Accept on the
 * website): handled again, each becomes an update there with its photos, as if sent after the YES.
 * Consent is to one Loop (decision 0033), and a held text's sender was in none, so it goes to that one.
 */
export async function releaseHeldTexts(tx: DbOrTx, userId: number, now: Date): Promise<void> {
  const [user] = await tx.select({ phone: users.phoneNumber }).from(users).where(eq(users.id, userId));
  if (!user) return;
  await tx
    .update(messages)
    .set({ status: 'received', error: null, nextAttemptAt: null, attempts: 0, updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.direction, 'inbound'),
        inArray(messages.fromAddress, [user.phone, `whatsapp:${user.phone}`]),
        eq(messages.status, 'ignored'),
        eq(messages.error, HELD_FOR_YES),
        gt(messages.createdAt, new Date(now.getTime() - INVITATION_LIFETIME_MS)),
      ),
    );
}
