import { and, eq, gt, isNotNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { hashToken, sameHash } from '../../lib/tokens';

/** Wrong PINs on one call before it ends. */
export const PIN_TRIES_PER_CALL = 3;
/** Wrong PINs in a row (two calls' worth) before the phone takes no PIN for PIN_LOCK_MS. */
export const PIN_FAILURES_BEFORE_LOCK = 6;
export const PIN_LOCK_MS = 24 * 60 * 60 * 1000;

/** Four digits, nothing else. */
export const PIN_PATTERN = /^[0-9]{4}$/;

/**
 * The PIN's keyed hash (decision 0067): HMAC-SHA-256 under the server's secret and the person's id,
 * so a copy of the database alone does not give the 10,000 candidates away, and one person's
 * hash says nothing about another's with the same digits.
 */
export function hashPhonePin(secret: string, userId: number, pin: string): string {
  return hashToken(`phone-pin:${userId}:${pin}`, secret);
}

/** Sets (or replaces) a person's PIN; a new PIN also lifts a lockout and forgets earlier wrong tries. */
export async function setPhonePin(db: DbOrTx, input: { secret: string; userId: number; pin: string }): Promise<void> {
  if (!PIN_PATTERN.test(input.pin)) throw new Error('a phone PIN is four digits');
  await db
    .update(users)
    .set({ phonePinHash: hashPhonePin(input.secret, input.userId, input.pin), phonePinFailures: 0, phonePinLockedUntil: null })
    .where(eq(users.id, input.userId));
}

export type PinCheck = 'right' | 'wrong' | 'locked' | 'unset';

/**
 * Checks a PIN said on a call. A wrong one counts, in the database, toward the phone's lockout;
 * the count is one statement, so calls side by side cannot each take their own extra tries. The
 * lockout stops PINs only: the holder's attested call and the website still work (decision 0067).
 */
export async function checkPhonePin(db: DbOrTx, input: { secret: string; userId: number; pin: string; now: Date }): Promise<PinCheck> {
  const [user] = await db
    .select({ hash: users.phonePinHash, lockedUntil: users.phonePinLockedUntil })
    .from(users)
    .where(eq(users.id, input.userId));
  if (!user?.hash) return 'unset';
  if (user.lockedUntil && user.lockedUntil > input.now) return 'locked';
  if (PIN_PATTERN.test(input.pin) && sameHash(hashPhonePin(input.secret, input.userId, input.pin), user.hash)) {
    await clearPinFailures(db, input.userId);
    return 'right';
  }
  const lockUntil = new Date(input.now.getTime() + PIN_LOCK_MS);
  const [after] = await db
    .update(users)
    .set({
      phonePinFailures: sql`case when ${users.phonePinFailures} + 1 >= ${PIN_FAILURES_BEFORE_LOCK} then 0 else ${users.phonePinFailures} + 1 end`,
      phonePinLockedUntil: sql`case when ${users.phonePinFailures} + 1 >= ${PIN_FAILURES_BEFORE_LOCK} then ${lockUntil.toISOString()}::timestamptz else ${users.phonePinLockedUntil} end`,
    })
    .where(eq(users.id, input.userId))
    .returning({ lockedUntil: users.phonePinLockedUntil });
  return after?.lockedUntil && after.lockedUntil > input.now ? 'locked' : 'wrong';
}

/** The holder proved the phone (an attested call, the right PIN): wrong tries so far are forgotten, a lockout lifted. */
export async function clearPinFailures(db: DbOrTx, userId: number): Promise<void> {
  // Most calls have nothing to forget: they write nothing.
  await db
    .update(users)
    .set({ phonePinFailures: 0, phonePinLockedUntil: null })
    .where(and(eq(users.id, userId), or(gt(users.phonePinFailures, 0), isNotNull(users.phonePinLockedUntil))));
}
