import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { phoneCodes } from '../../db/schema';
import { AppError } from '../../errors';
import { markCodeTextUsed } from './code-text-budget';
import { sameHash } from '../../lib/tokens';
import { hashHolder, hashPhoneCode, PHONE_CODE, presentedHolder, type PhoneCodePurpose } from './phone-code-policy';

export type CodeProblem = 'wrong' | 'expired' | 'too_many';

export interface CheckedCode {
  id: number;
  payload: Record<string, unknown>;
}

/**
 * Checks a code typed for a phone and purpose, in the browser that asked for it: `holder` is the
 * code-holder secret it presented (decision 0027). In any other browser no code is waiting
 * ('expired'), and nothing counts against the code. Every try counts (in its own statement, so a
 * wrong code counts even though the request then fails), at most PHONE_CODE.maxTries per code.
 * A code that checks out is not used up yet: the caller's transaction calls consumePhoneCode.
 */
export async function checkPhoneCode(
  db: Db,
  input: { phoneNumber: string; purpose: PhoneCodePurpose; code: string; now: Date; secret: string; holder: string | undefined },
): Promise<CheckedCode | CodeProblem> {
  const { phoneNumber, purpose, now } = input;
  const presented = presentedHolder(input.holder);
  // No secret matches no row (a hash is never empty).
  const holderHash = presented ? hashHolder(presented, input.secret) : '';
  const where = and(
    eq(phoneCodes.phoneNumber, phoneNumber),
    eq(phoneCodes.purpose, purpose),
    gt(phoneCodes.expiresAt, now),
    eq(phoneCodes.holderHash, holderHash),
  );
  const [row] = await db
    .update(phoneCodes)
    .set({ tries: sql`${phoneCodes.tries} + 1` })
    .where(and(where, lt(phoneCodes.tries, PHONE_CODE.maxTries)))
    .returning();
  if (!row) {
    const [spent] = await db.select({ id: phoneCodes.id }).from(phoneCodes).where(where).limit(1);
    return spent ? 'too_many' : 'expired';
  }
  const typed = hashPhoneCode({ phoneNumber, purpose, code: input.code }, input.secret);
  if (!sameHash(typed, row.codeHash)) return 'wrong';
  return { id: row.id, payload: row.payload };
}

/**
 * Uses a checked code up, in the caller's transaction; a code used meanwhile is refused. Its text
 * no longer counts among codes nobody typed in (decision 0051).
 */
export async function consumePhoneCode(tx: DbOrTx, id: number): Promise<void> {
  const [row] = await tx.delete(phoneCodes).where(eq(phoneCodes.id, id)).returning({ codeHash: phoneCodes.codeHash });
  if (!row) throw new AppError('bad_request', 'This code was already used. Ask for a new code.');
  await markCodeTextUsed(tx, row.codeHash);
}

/** No code of this browser waits: expired, used, or asked for in another browser (where it stays). */
export const CODE_GONE = 'This code has expired, was already used, or was asked for in another browser. Ask for a new code here.';

/** The answer to a code that did not check out, for screens where it may say what went wrong. */
export function codeProblemError(problem: CodeProblem): AppError {
  if (problem === 'wrong') return new AppError('bad_request', 'That code is not right. Check the text and try again.');
  if (problem === 'too_many') return new AppError('too_many_requests', 'Too many wrong codes. Ask for a new code.');
  return new AppError('bad_request', CODE_GONE);
}
