import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/clock';

export type PhoneCodePurpose = 'sign_up' | 'reset_password';

/** The rules of texted codes (issue 14): one place, read by the services and the tests. */
export const PHONE_CODE = {
  digits: 6,
  validMs: 10 * MINUTE_MS,
  maxTries: 5,
  /** The visible wait before "Resend code" works again. */
  resendAfterMs: 30_000,
  /** Codes texted to one phone per window, whatever the purpose or the address asking. */
  perPhone: 5,
  windowMs: HOUR_MS,
  /** And per day (decision 0030): a phone can be made to get 10 code texts a day at most. */
  perPhonePerDay: 10,
  dayMs: DAY_MS,
} as const;

/** A uniformly random code of PHONE_CODE.digits digits (leading zeros kept). */
export function newPhoneCode(): string {
  return String(randomInt(0, 10 ** PHONE_CODE.digits)).padStart(PHONE_CODE.digits, '0');
}

/** The keyed hash kept instead of the code: bound to the phone and purpose it was sent for. */
export function hashPhoneCode(input: { phoneNumber: string; purpose: PhoneCodePurpose; code: string }, secret: string): string {
  return createHmac('sha256', secret).update(`phone-code:${input.purpose}:${input.phoneNumber}:${input.code}`).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** The text: names Loop and the purpose, and carries nothing anyone typed but the code itself. */
export function phoneCodeText(purpose: PhoneCodePurpose, code: string): string {
  const what = purpose === 'sign_up' ? 'to sign up for Loop with this phone' : 'to set a new Loop password';
  return `Loop: ${code} is your code ${what}. It expires in 10 minutes. Never share it: Loop will never ask you for it. If you did not ask for it, ignore this text.`;
}
