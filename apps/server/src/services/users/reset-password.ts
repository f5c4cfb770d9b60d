import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { PasswordResetStarted } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { AppError } from '../../errors';
import { checkNewPassword, hashPassword } from '../../lib/passwords';
import { checkPhoneCode, consumePhoneCode } from '../phone-codes/check-phone-code';
import { issuePhoneCode } from '../phone-codes/issue-phone-code';
import { PHONE_CODE } from '../phone-codes/phone-code-policy';
import type { CodeTextLimits } from '../phone-codes/code-text-budget';

export type LoginId = { email: string } | { phoneNumber: string };

/**
 * True whether or not a code went out, and the same for every account or none (decision 0052):
 * when this browser asked less than 30 seconds ago or the phone had its reset codes for the hour,
 * nothing is sent, and the answer says so without saying which case this is. Another browser's
 * waiting code stops nothing (decision 0060).
 */
const STARTED =
  'If an account has this phone number or email, we texted a code to its phone. It is valid for 10 minutes. No code is sent within 30 seconds of the last one asked for in this browser, or after 5 in an hour: then try again later.';
/** One answer for every code that does not check out: it must not tell whether an account exists. */
const NOT_RIGHT =
  'That code is not right, has expired, was already used, or was asked for in another browser. Check the text, or ask for a new code here.';

/** The account (with a password) a "Forgot password?" form names, if any. */
async function findAccount(db: Db, login: LoginId) {
  const match = 'email' in login ? eq(sql`lower(${users.email})`, login.email) : eq(users.phoneNumber, login.phoneNumber);
  const [user] = await db
    .select({ id: users.id, phoneNumber: users.phoneNumber })
    .from(users)
    .where(and(match, isNotNull(users.passwordHash)))
    .limit(1);
  return user;
}

/**
 * "Forgot password?": texts a code to the account's phone, bound to this browser (`holder`: the
 * secret it presented; decision 0027). The answer is the same, and takes as long, whether or not
 * an account exists and whether or not a code went out (a resend too soon, too many codes, an
 * opted-out phone all answer alike): without an account the same
 * code work is rehearsed and thrown away. Only the Phone Simulator, which proves nothing, shows the text.
 */
export async function requestPasswordReset(
  db: Db,
  login: LoginId,
  options: { now: Date; secret: string; simulator: boolean; holder: string | undefined; limits: CodeTextLimits },
): Promise<{ answer: PasswordResetStarted; holder: string }> {
  const account = await findAccount(db, login);
  const issued = await issuePhoneCode(db, {
    phoneNumber: account?.phoneNumber ?? '',
    purpose: 'reset_password',
    payload: { userId: account?.id ?? null },
    now: options.now,
    secret: options.secret,
    holder: options.holder,
    limits: options.limits,
    rehearse: !account,
  });
  const text = account && issued.status === 'sent' ? issued.text : null;
  return {
    answer: { message: STARTED, resendAfterSeconds: PHONE_CODE.resendAfterMs / 1000, simulatedText: options.simulator ? text : null },
    holder: issued.holder,
  };
}

/**
 * Sets a new password with a texted code, in the browser that asked for it, and ends every
 * session of the account; the caller starts a new one for this browser. A used code cannot be
 * replayed (its row is gone).
 */
export async function resetPassword(
  db: Db,
  input: { login: LoginId; code: string; password: string },
  options: { now: Date; secret: string; staffPhones: readonly string[]; holder: string | undefined },
): Promise<{ userId: number }> {
  await checkNewPassword(input.password);
  const account = await findAccount(db, input.login);
  if (!account) throw new AppError('bad_request', NOT_RIGHT);
  const checked = await checkPhoneCode(db, {
    phoneNumber: account.phoneNumber,
    purpose: 'reset_password',
    code: input.code,
    now: options.now,
    secret: options.secret,
    holder: options.holder,
  });
  if (typeof checked === 'string' || checked.payload.userId !== account.id) throw new AppError('bad_request', NOT_RIGHT);
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    await consumePhoneCode(tx, checked.id);
    const staff = options.staffPhones.includes(account.phoneNumber) ? { isStaff: true } : {};
    await tx
      .update(users)
      .set({ passwordHash, phoneProvenAt: options.now, ...staff })
      .where(eq(users.id, account.id));
    await tx.delete(sessions).where(eq(sessions.userId, account.id));
    return { userId: account.id };
  });
}
