import type { z } from 'zod';
import type { registerSchema, SignUpStarted } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import { checkNewPassword, hashPassword } from '../../lib/passwords';
import { codeSentAnswer } from '../phone-codes/code-sent-answer';
import { issuePhoneCode } from '../phone-codes/issue-phone-code';
import type { CodeTextLimits } from '../phone-codes/code-text-budget';

/** The sign-up form kept with its code until the code checks out. */
export interface SignUpPayload {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  messagingPreference: 'sms' | 'whatsapp';
}

/** What a sign-up step answers, and the code-holder secret the browser keeps (its cookie). */
export interface SignUpStep {
  answer: SignUpStarted;
  holder: string;
}

/**
 * First step of sign-up: texts a code to the phone and keeps the form with it, bound to this
 * browser (`holder`: the secret it presented). Creates no account. The answer is the same whether
 * or not the phone or email is known. Another browser's sign-up waiting for the phone is left as
 * it is, and this browser gets a code of its own (decision 0060).
 */
export async function startSignUp(
  db: Db,
  input: z.output<typeof registerSchema>,
  options: { now: Date; secret: string; simulator: boolean; holder: string | undefined; limits: CodeTextLimits },
): Promise<SignUpStep> {
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
    holder: options.holder,
    limits: options.limits,
  });
  return codeSentAnswer(input.phoneNumber, issued, options.simulator);
}

/** "Resend code": a new code for the sign-up this browser started on this phone. */
export async function resendSignUpCode(
  db: Db,
  input: { phoneNumber: string },
  options: { now: Date; secret: string; simulator: boolean; holder: string | undefined; limits: CodeTextLimits },
): Promise<SignUpStep> {
  const issued = await issuePhoneCode(db, {
    phoneNumber: input.phoneNumber,
    purpose: 'sign_up',
    payload: 'keep',
    now: options.now,
    secret: options.secret,
    holder: options.holder,
    limits: options.limits,
  });
  return codeSentAnswer(input.phoneNumber, issued, options.simulator);
}
