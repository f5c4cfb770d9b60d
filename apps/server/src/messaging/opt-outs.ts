import { createHash } from 'node:crypto';
import { eq, inArray, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { hashedOptOuts, phoneOptOuts } from '../db/schema';

/**
 * The form in which a deleted account's phone is remembered as opted out (decision 0045):
 * SHA-256 of a fixed prefix and the E.164 number, hex. Unkeyed on purpose, so it outlives a
 * rotated SESSION_SECRET; a phone number is guessable from it by trying numbers, so it is kept
 * for the opt-out alone (docs/security.md#what-is-kept-after-deletion). The same in SQL below.
 */
export function optOutHash(phoneNumber: string): string {
  return createHash('sha256').update(`loop-opt-out:${phoneNumber}`).digest('hex');
}

/** SQL: optOutHash of an E.164 phone. */
function optOutHashSql(phone: SQLWrapper): SQL {
  return sql`encode(sha256(convert_to('loop-opt-out:' || ${phone}, 'UTF8')), 'hex')`;
}

/** Records that a phone must not be texted; `reason` is the keyword, OptOutType or provider error. */
export async function optOutPhone(db: DbOrTx, phoneNumber: string, reason: string, now: Date): Promise<void> {
  await db
    .insert(phoneOptOuts)
    .values({ phoneNumber, reason, optedOutAt: now })
    .onConflictDoUpdate({ target: phoneOptOuts.phoneNumber, set: { reason, optedOutAt: now } });
}

/**
 * A phone whose account (or whose texts) was deleted: opted out by its hash only, and its row in
 * the clear removed. Never texted again until it texts START (decision 0045).
 */
export async function optOutErasedPhone(db: DbOrTx, phoneNumber: string, reason: string, now: Date): Promise<void> {
  await db
    .insert(hashedOptOuts)
    .values({ phoneHash: optOutHash(phoneNumber), reason, optedOutAt: now })
    .onConflictDoUpdate({ target: hashedOptOuts.phoneHash, set: { reason, optedOutAt: now } });
  await db.delete(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, phoneNumber));
}

/** START: the phone may be texted again, whichever way it was remembered. */
export async function optInPhone(db: DbOrTx, phoneNumber: string): Promise<void> {
  await db.delete(phoneOptOuts).where(eq(phoneOptOuts.phoneNumber, phoneNumber));
  await db.delete(hashedOptOuts).where(eq(hashedOptOuts.phoneHash, optOutHash(phoneNumber)));
}

export async function isOptedOut(db: DbOrTx, phoneNumber: string): Promise<boolean> {
  return (await optedOutAmong(db, [phoneNumber])).has(phoneNumber);
}

/** Which of these phones opted out, in the clear or by hash. */
export async function optedOutAmong(db: DbOrTx, phones: readonly string[]): Promise<Set<string>> {
  if (phones.length === 0) return new Set();
  const plain = await db
    .select({ phone: phoneOptOuts.phoneNumber })
    .from(phoneOptOuts)
    .where(inArray(phoneOptOuts.phoneNumber, [...phones]));
  const byHash = new Map(phones.map((p) => [optOutHash(p), p]));
  const hashed = await db
    .select({ hash: hashedOptOuts.phoneHash })
    .from(hashedOptOuts)
    .where(inArray(hashedOptOuts.phoneHash, [...byHash.keys()]));
  return new Set([...plain.map((r) => r.phone), ...hashed.flatMap((r) => byHash.get(r.hash) ?? [])]);
}

/** SQL: this phone (E.164) has not opted out, in the clear or by hash. */
export function phoneNotOptedOut(phone: SQLWrapper): SQL {
  return sql`(not exists (select 1 from ${phoneOptOuts} where ${phoneOptOuts.phoneNumber} = ${phone})
    and not exists (select 1 from ${hashedOptOuts} where ${hashedOptOuts.phoneHash} = ${optOutHashSql(phone)}))`;
}
