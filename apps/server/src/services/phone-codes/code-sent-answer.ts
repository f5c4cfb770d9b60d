import type { SignUpStarted } from '@loop/shared/auth';
import { AppError } from '../../errors';
import { waitText } from '../attempts/enforce-limits';
import type { IssueOutcome } from './issue-phone-code';
import { PHONE_CODE } from './phone-code-policy';

/** A resend when no code of this browser waits: true whatever the phone, and it names no account. */
export const NO_CODE_TO_RESEND =
  'No code was sent: no code asked for in this browser is waiting for this phone (it expired or was used). Fill in the form again for a new code.';

/**
 * What a form that texted a code to a phone answers (sign-up, a new phone number), and the
 * code-holder secret the browser keeps (its cookie). Every browser gets its own code (decision
 * 0060), so a 202 means a code went out (or, for a number of another account, that the same work
 * was done for nobody, decision 0052). When none went out the answer says why: this browser's own
 * wait, the phone's cap on codes, codes held for the number's prefix, or a resend with nothing to
 * resend. None of them depends on whether the phone has an account.
 */
export function codeSentAnswer(phoneNumber: string, issued: IssueOutcome, simulator: boolean): { answer: SignUpStarted; holder: string } {
  if (issued.status === 'too_soon') {
    throw new AppError('too_many_requests', `A code was just sent. Please wait ${issued.waitSeconds} seconds before asking for another.`);
  }
  if (issued.status === 'too_many') {
    throw new AppError(
      'too_many_requests',
      `Too many codes were sent to this phone. Please try again ${waitText(issued.waitSeconds * 1000)}.`,
    );
  }
  if (issued.status === 'held') throw issued.error;
  if (issued.status === 'refused') throw new AppError('bad_request', NO_CODE_TO_RESEND);
  const text = issued.text;
  return {
    answer: {
      phoneNumber,
      expiresInSeconds: PHONE_CODE.validMs / 1000,
      resendAfterSeconds: PHONE_CODE.resendAfterMs / 1000,
      simulatedText: simulator ? text : null,
    },
    holder: issued.holder,
  };
}
