import type { SignUpStarted } from '@loop/shared/auth';
import { AppError } from '../../errors';
import { waitText } from '../attempts/enforce-limits';
import type { IssueOutcome } from './issue-phone-code';
import { PHONE_CODE } from './phone-code-policy';

/**
 * What a form that texted a code to a phone answers (sign-up, a new phone number), and the
 * code-holder secret the browser keeps (its cookie). One answer whatever the phone's state: a
 * refused form or resend (another browser's code waits, or none of this browser's does) reads as a
 * code that went out. Only this browser's own wait, and the phone's cap on codes, are said.
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
  const text = issued.status === 'sent' ? issued.text : null;
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
