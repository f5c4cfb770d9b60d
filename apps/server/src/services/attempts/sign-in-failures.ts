import { and, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { attemptCounts } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { countAttempts } from './count-attempts';

/**
 * Failed sign-ins (decision 0013, OWASP's authentication guidance): only failures count, per
 * (account, address) pair and, with a higher ceiling, per account. A stranger guessing from a few
 * addresses stops themselves, never the account's holder signing in from their own address.
 */
export interface SignInLimits {
  perPair: number;
  perAccount: number;
  windowMs: number;
}

export interface SignInKeys {
  pair: string;
  account: string;
}

export function signInKeys(email: string, ip: string, secret: string): SignInKeys {
  return {
    pair: hashToken(`login-failures:pair:${email}:${ip}`, secret),
    account: hashToken(`login-failures:account:${email}`, secret),
  };
}

/** How long this pair must wait, in ms, or 0 when it may try. Counts nothing. */
export async function signInWait(db: DbOrTx, keys: SignInKeys, limits: SignInLimits, now: Date): Promise<number> {
  const rows = await db
    .select()
    .from(attemptCounts)
    .where(and(inArray(attemptCounts.key, [keys.pair, keys.account]), gt(attemptCounts.windowEndsAt, now)));
  const over = rows.filter((row) => row.count >= (row.key === keys.pair ? limits.perPair : limits.perAccount));
  return over.length === 0 ? 0 : Math.max(...over.map((row) => row.windowEndsAt.getTime())) - now.getTime();
}

export async function recordSignInFailure(db: DbOrTx, keys: SignInKeys, limits: SignInLimits, now: Date): Promise<void> {
  await countAttempts(db, [keys.pair, keys.account], now, limits.windowMs);
}

/** A right password from this address clears its failures (the account's ceiling keeps its count). */
export async function forgetSignInFailures(db: DbOrTx, keys: SignInKeys): Promise<void> {
  await db.delete(attemptCounts).where(inArray(attemptCounts.key, [keys.pair]));
}
