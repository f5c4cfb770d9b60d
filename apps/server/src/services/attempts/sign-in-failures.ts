import { and, gt, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { attemptCounts } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { countAttempts } from './count-attempts';

/**
 * Failed sign-ins (decision 0013, OWASP's authentication guidance): only failures count, per
 * (account, address) pair and, with a higher ceiling, per account. A stranger guessing from a few
 * addresses stops themselves, never the account's holder signing in from their own address; past
 * the account's ceiling a sign-in needs a code texted to the account's phone (decision 0028).
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

/**
 * Where a sign-in stands, counting nothing: `waitMs` > 0 when this (email, address) pair had its
 * failures and must wait; `guarded` when the email had its failures from all addresses: then a
 * right password alone does not sign in, and a code texted to the account's phone finishes it
 * (decision 0028). The ceiling never answers 429, so nobody can lock a holder out with it.
 */
export async function signInStanding(
  db: DbOrTx,
  keys: SignInKeys,
  limits: SignInLimits,
  now: Date,
): Promise<{ waitMs: number; guarded: boolean }> {
  const rows = await db
    .select()
    .from(attemptCounts)
    .where(and(inArray(attemptCounts.key, [keys.pair, keys.account]), gt(attemptCounts.windowEndsAt, now)));
  const pair = rows.find((row) => row.key === keys.pair && row.count >= limits.perPair);
  const account = rows.find((row) => row.key === keys.account && row.count >= limits.perAccount);
  return { waitMs: pair ? pair.windowEndsAt.getTime() - now.getTime() : 0, guarded: account !== undefined };
}

export async function recordSignInFailure(db: DbOrTx, keys: SignInKeys, limits: SignInLimits, now: Date): Promise<void> {
  await countAttempts(db, [keys.pair, keys.account], now, limits.windowMs);
}

/** A right password from this address clears its failures (the account's ceiling keeps its count). */
export async function forgetSignInFailures(db: DbOrTx, keys: SignInKeys): Promise<void> {
  await db.delete(attemptCounts).where(inArray(attemptCounts.key, [keys.pair]));
}
