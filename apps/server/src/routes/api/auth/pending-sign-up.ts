import { createHmac } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PendingSignUp } from '@loop/shared/auth';
import { maskPhoneNumber } from '@loop/shared/phone';
import { presentedCodeHolder } from '../../../plugins/session';
import { sameHash } from '../../../lib/tokens';
import { CODE_HOLDER_COOKIE, PHONE_CODE, presentedHolder } from '../../../services/phone-codes/phone-code-policy';

/**
 * The phone a browser's sign-up was started for, and when, kept beside its code-holder cookie
 * (decision 0027) so that the code step survives a reload. It is set at every form or resend that
 * answered 202 (a code went out, or, for an opted-out phone, would have): the server asks no
 * table, so the step after a reload says nothing the form's answer did not. Signed with the code-holder secret it goes with: a cookie planted from elsewhere
 * names no phone.
 */
const COOKIE = { name: 'loop_sign_up_phone', path: CODE_HOLDER_COOKIE.sign_up.path };

interface SignUpPhone {
  phoneNumber: string;
  sentAt: number;
}

function signature(holder: string, phoneNumber: string, sentAt: number, secret: string): string {
  return createHmac('sha256', secret).update(`sign-up-phone:${holder}:${phoneNumber}:${sentAt}`).digest('base64url');
}

/** After a sign-up form or resend answered 202: this browser's sign-up is for `phoneNumber`, from `now`. */
export function setSignUpPhoneCookie(reply: FastifyReply, input: { holder: string; phoneNumber: string; now: Date; secret: string }) {
  const sentAt = input.now.getTime();
  reply.setCookie(COOKIE.name, `${input.phoneNumber}.${sentAt}.${signature(input.holder, input.phoneNumber, sentAt, input.secret)}`, {
    path: COOKIE.path,
    httpOnly: true,
    sameSite: 'strict',
    secure: reply.server.ctx.config.secureCookies,
    maxAge: PHONE_CODE.validMs / 1000,
  });
}

/** Forgets the phone once the account is made: a later visit to the sign-up page starts afresh. */
export function clearSignUpPhoneCookie(reply: FastifyReply) {
  reply.clearCookie(COOKIE.name, { path: COOKIE.path, httpOnly: true, sameSite: 'strict', secure: reply.server.ctx.config.secureCookies });
}

/** The phone this browser's sign-up was started for, while its code may still be waiting; else null. */
export function signUpPhone(request: FastifyRequest, now: Date, secret: string): SignUpPhone | null {
  const holder = presentedHolder(presentedCodeHolder(request, 'sign_up'));
  const [phoneNumber, sent, signed, ...rest] = (request.cookies[COOKIE.name] ?? '').split('.');
  if (!holder || !phoneNumber || !sent || !signed || rest.length > 0 || !/^\+\d{6,15}$/.test(phoneNumber)) return null;
  const sentAt = Number(sent);
  if (!Number.isSafeInteger(sentAt) || !sameHash(signed, signature(holder, phoneNumber, sentAt, secret))) return null;
  if (now.getTime() - sentAt >= PHONE_CODE.validMs) return null;
  return { phoneNumber, sentAt };
}

/** GET /api/register/pending's answer. */
export function pendingSignUp(found: SignUpPhone | null, now: Date): PendingSignUp {
  if (!found) return { signUp: null };
  const since = now.getTime() - found.sentAt;
  return {
    signUp: {
      maskedPhoneNumber: maskPhoneNumber(found.phoneNumber),
      expiresInSeconds: Math.ceil((PHONE_CODE.validMs - since) / 1000),
      resendAfterSeconds: Math.max(0, Math.ceil((PHONE_CODE.resendAfterMs - since) / 1000)),
    },
  };
}
