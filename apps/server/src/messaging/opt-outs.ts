import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { phoneOptOuts } from '../db/schema';

/** Records that a phone must not be texted; `reason` is the keyword, OptOutType or provider error. */
export async function optOutPhone(db: DbOrTx, phoneNumber: string, reason: string, now: Date): Promise<void> {
  await db
    .insert(phoneOptOuts)
    .values({ phoneNumber, reason, optedOutAt: now })
    .onConflictDoUpdate({ target: phoneOptOuts.phoneNumber, set: { reason, optedOutAt: now } });
}

export async function optInPhone(db: DbOrTx, phoneNumber: string): Promise<void> {
  await db.delete(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, phoneNumber));
}

export async function isOptedOut(db: DbOrTx, phoneNumber: string): Promise<boolean> {
  const rows = await db
    .select({ phoneNumber: phoneOptOuts.phoneNumber })
    .from(phoneOptOuts)
    .where(eq(phoneOptOuts.phoneNumber, phoneNumber))
    .limit(1);
  return rows.length > 0;
}
