import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { emailSuppressions, hashedOptOuts, phoneOptOuts, undeliverablePhones } from '../../db/schema';
import { optOutHash } from '../../messaging/opt-outs';

/**
 * What Loop holds about a person's "no" (GDPR Art. 15): their phone's opt-out (STOP, in the clear
 * or as the hash a deletion left), a carrier's "cannot receive texts" mark, and their address's
 * e-mail suppression (unsubscribe, bounce or complaint). The keywords they texted (STOP, START)
 * are in texts.json with the other texts.
 */
export async function readOptOuts(db: DbOrTx, person: { phoneNumber: string; email: string | null }) {
  const [optedOut] = await db
    .select({ at: phoneOptOuts.optedOutAt, reason: phoneOptOuts.reason })
    .from(phoneOptOuts)
    .where(eq(phoneOptOuts.phoneNumber, person.phoneNumber));
  const [hashed] = await db
    .select({ at: hashedOptOuts.optedOutAt, reason: hashedOptOuts.reason })
    .from(hashedOptOuts)
    .where(eq(hashedOptOuts.phoneHash, optOutHash(person.phoneNumber)));
  const [undeliverable] = await db
    .select({ at: undeliverablePhones.markedAt, twilioErrorCode: undeliverablePhones.errorCode })
    .from(undeliverablePhones)
    .where(eq(undeliverablePhones.phoneNumber, person.phoneNumber));
  const [suppressed] = person.email
    ? await db
        .select({ at: emailSuppressions.createdAt, reason: emailSuppressions.reason, detail: emailSuppressions.detail })
        .from(emailSuppressions)
        .where(sql`${emailSuppressions.address} = lower(${person.email})`)
    : [];
  return {
    phone: {
      optedOut: optedOut ?? hashed ?? null,
      cannotReceiveTexts: undeliverable ?? null,
    },
    email: { suppressed: suppressed ?? null },
  };
}
