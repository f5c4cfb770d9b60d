import { randomInt } from 'node:crypto';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../lib/clock';
import { hashToken } from '../../lib/tokens';

/**
 * sign_in: the second step of a sign-in to an account past its failed-sign-in ceiling (decision 0028);
 * change_phone: proves a signed-in account's new number (decision 0044).
 */
export type PhoneCodePurpose = 'sign_up' | 'reset_password' | 'sign_in' | 'change_phone';

/** The rules of texted codes: one place, read by the services and the tests. */
export const PHONE_CODE = {
  digits: 6,
  validMs: 10 * MINUTE_MS,
  maxTries: 5,
  /** The visible wait before "Resend code" works again. */
  resendAfterMs: 30_000,
  /** Codes texted to one phone per window and purpose, whatever the address asking (decision 0052). */
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
  return hashToken(`phone-code:${input.purpose}:${input.phoneNumber}:${input.code}`, secret);
}

const PURPOSE_TEXT: Record<PhoneCodePurpose, string> = {
  sign_up: 'to sign up for Loop with this phone',
  reset_password: 'to set a new Loop password',
  sign_in: 'to log in to Loop',
  change_phone: 'to use this phone with a Loop account',
};

/** The text: names Loop and the purpose, and carries nothing anyone typed but the code itself. */
export function phoneCodeText(purpose: PhoneCodePurpose, code: string): string {
  // A sign-in code goes out only after the right password: one nobody asked for means the password is known.
  const unasked =
    purpose === 'sign_in'
      ? 'If you did not ask for it, someone knows your password: use "Forgot password?" to set a new one.'
      : 'If you did not ask for it, ignore this text.';
  return `Loop: ${code} is your code ${PURPOSE_TEXT[purpose]}. It expires in 10 minutes. Never share it: Loop will never ask you for it. ${unasked}`;
}

/**
 * The cookie that carries a browser's code-holder secret for each purpose: HttpOnly, SameSite=Strict,
 * and sent only to the routes of its own form (decision 0027).
 */
export const CODE_HOLDER_COOKIE: Record<PhoneCodePurpose, { name: string; path: string }> = {
  sign_up: { name: 'loop_sign_up', path: '/api/register' },
  reset_password: { name: 'loop_password_reset', path: '/api/password-reset' },
  sign_in: { name: 'loop_sign_in', path: '/api/login' },
  change_phone: { name: 'loop_phone_change', path: '/api/user/phone' },
};

/**
 * A browser's code-holder secret as it may be presented (a cookie): a token of TOKEN_BYTES.codeHolder
 * bytes, or nothing. Anything else is treated as no secret at all.
 */
export function presentedHolder(value: string | undefined): string | null {
  return value !== undefined && /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
}

/** The keyed hash of a code-holder secret kept with the code (decision 0027). */
export function hashHolder(holder: string, secret: string): string {
  return hashToken(`code-holder:${holder}`, secret);
}
