import type { PhoneChangeStarted } from '@loop/shared/auth';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { enforceLimits } from '../attempts/enforce-limits';
import type { SignInKeys, SignInLimits } from '../attempts/sign-in-failures';
import { codeSentAnswer } from '../phone-codes/code-sent-answer';
import { issuePhoneCode } from '../phone-codes/issue-phone-code';
import { checkCurrentPassword } from './change-password';
import type { CodeTextLimits } from '../phone-codes/code-text-budget';

const GUARDED =
  'This account had many failed log-ins, so its phone number cannot be changed for now: log out and use "Forgot password?" to set a new password first.';

/** Codes one account may have texted to new numbers, beyond each phone's own caps (decision 0044). */
export const PHONE_CHANGE_LIMITS = { perHour: 5, perDay: 10 } as const;

/**
 * Profile's "Change phone number", first step: the password in use (a session alone cannot move
 * the phone), then a code texted to the new number, bound to this browser (`holder`; decision
 * 0027) and to this account (the payload). Nothing changes yet. A number another account has gets
 * no text; the answer is the same either way (decision 0052). Each account may have
 * PHONE_CHANGE_LIMITS codes texted, so a signed-in stranger cannot text numbers at will.
 */
export async function startPhoneChange(
  db: Db,
  user: { id: number; phoneNumber: string; passwordHash: string | null },
  input: { phoneNumber: string; currentPassword: string },
  options: {
    now: Date;
    secret: string;
    simulator: boolean;
    holder: string | undefined;
    limits: CodeTextLimits;
    password: { keys: SignInKeys; limits: SignInLimits };
  },
): Promise<{ answer: PhoneChangeStarted; holder: string }> {
  const { phoneNumber, currentPassword } = input;
  if (phoneNumber === user.phoneNumber) {
    throw new AppError('bad_request', 'This is already your phone number. Enter the new number you want Loop to text.');
  }
  await checkCurrentPassword(db, user, currentPassword, { ...options.password, now: options.now, guarded: GUARDED });
  const message = (wait: string) => `You asked for many codes for a new phone number. Please try again ${wait}.`;
  await enforceLimits(db, options.secret, options.now, [
    { key: `phone-change:account:${user.id}`, max: PHONE_CHANGE_LIMITS.perHour, windowMs: HOUR_MS, message },
    { key: `phone-change-day:account:${user.id}`, max: PHONE_CHANGE_LIMITS.perDay, windowMs: DAY_MS, message },
  ]);
  // Another account's number gets no code: its holder did not ask, and may be anyone. The same
  // work is rehearsed and the answer is the same, so the requester cannot tell (decision 0052).
  const [other] = await db.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phoneNumber)).limit(1);
  const issued = await issuePhoneCode(db, {
    rehearse: other !== undefined,
    phoneNumber,
    purpose: 'change_phone',
    payload: { userId: user.id },
    now: options.now,
    secret: options.secret,
    holder: options.holder,
    limits: options.limits,
  });
  return codeSentAnswer(phoneNumber, issued, options.simulator);
}
