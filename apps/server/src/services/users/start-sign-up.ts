import type { z } from 'zod';
import type { registerSchema, SignUpStarted } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { checkNewPassword, hashPassword } from '../../lib/passwords';
import { waitText } from '../attempts/enforce-limits';
import { issuePhoneCode } from '../phone-codes/issue-phone-code';
import { PHONE_CODE } from '../phone-codes/phone-code-policy';

/** The sign-up form kept with its code until the code checks out. */
export interface SignUpPayload {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  messagingPreference: 'sms' | 'whatsapp';
}

/**
 * First step of sign-up: texts a code to the phone and keeps the form with it. Creates no account.
 * The answer is the same whether or not the phone or email is known (issue 14 item 7).
 */
export async function startSignUp(
  db: Db,
  input: z.output<typeof registerSchema>,
  options: { now: Date; secret: string; simulator: boolean },
): Promise<SignUpStarted> {
  await checkNewPassword(input.password);
  const payload: SignUpPayload = {
    email: input.email,
    passwordHash: await hashPassword(input.password),
    firstName: input.firstName,
    lastName: input.lastName,
    messagingPreference: input.messagingPreference,
  };
  const issued = await issuePhoneCode(db, {
    phoneNumber: input.phoneNumber,
    purpose: 'sign_up',
    payload: { ...payload },
    now: options.now,
    secret: options.secret,
  });
  return signUpAnswer(input.phoneNumber, issued, options.simulator);
}

/** "Resend code": a new code for the sign-up waiting on this phone. */
export async function resendSignUpCode(
  db: Db,
  input: { phoneNumber: string },
  options: { now: Date; secret: string; simulator: boolean },
): Promise<SignUpStarted> {
  const issued = await issuePhoneCode(db, {
    phoneNumber: input.phoneNumber,
    purpose: 'sign_up',
    payload: 'keep',
    now: options.now,
    secret: options.secret,
  });
  return signUpAnswer(input.phoneNumber, issued, options.simulator);
}

function signUpAnswer(phoneNumber: string, issued: Awaited<ReturnType<typeof issuePhoneCode>>, simulator: boolean): SignUpStarted {
  if (issued.status === 'none') {
    throw new AppError('bad_request', 'No sign-up is waiting for this phone number. Fill in the sign-up form again.');
  }
  if (issued.status === 'too_soon') {
    throw new AppError('too_many_requests', `A code was just sent. Please wait ${issued.waitSeconds} seconds before asking for another.`);
  }
  if (issued.status === 'too_many') {
    throw new AppError(
      'too_many_requests',
      `Too many codes were sent to this phone. Please try again ${waitText(issued.waitSeconds * 1000)}.`,
    );
  }
  return {
    phoneNumber,
    expiresInSeconds: PHONE_CODE.validMs / 1000,
    resendAfterSeconds: PHONE_CODE.resendAfterMs / 1000,
    simulatedText: simulator ? issued.text : null,
  };
}
