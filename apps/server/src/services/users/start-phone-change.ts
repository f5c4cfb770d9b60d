import type { PhoneChangeStarted } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { DAY_MS, HOUR_MS } from '../../lib/clock';
import { enforceLimits } from '../attempts/enforce-limits';
import { codeSentAnswer } from '../phone-codes/code-sent-answer';
import { issuePhoneCode } from '../phone-codes/issue-phone-code';
import type { CodeTextLimits } from '../phone-codes/code-text-budget';

/** Codes one account may have texted to new numbers, beyond each phone's own caps (decision 0044). */
export const PHONE_CHANGE_LIMITS = { perHour: 5, perDay: 10 } as const;

/**
 * Profile's "Change phone number", first step: texts a code to the new number, bound to this
 * browser (`holder`; decision 0027) and to this account (the payload). Nothing changes yet. The
 * answer is the same whether or not the number belongs to another account or member: only its
 * holder, who gets the code, learns that, at the next step (decision 0044). Each account may
 * have PHONE_CHANGE_LIMITS codes texted, so a signed-in stranger cannot text numbers at will.
 */
export async function startPhoneChange(
  db: Db,
  user: { id: number; phoneNumber: string },
  phoneNumber: string,
  options: { now: Date; secret: string; simulator: boolean; holder: string | undefined; limits: CodeTextLimits },
): Promise<{ answer: PhoneChangeStarted; holder: string }> {
  if (phoneNumber === user.phoneNumber) {
    throw new AppError('bad_request', 'This is already your phone number. Enter the new number you want Loop to text.');
  }
  const message = (wait: string) => `You asked for many codes for a new phone number. Please try again ${wait}.`;
  await enforceLimits(db, options.secret, options.now, [
    { key: `phone-change:account:${user.id}`, max: PHONE_CHANGE_LIMITS.perHour, windowMs: HOUR_MS, message },
    { key: `phone-change-day:account:${user.id}`, max: PHONE_CHANGE_LIMITS.perDay, windowMs: DAY_MS, message },
  ]);
  const issued = await issuePhoneCode(db, {
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
