import type { SignInCodeNeeded } from '@loop/shared/auth';
import type { Db } from '../../db/client';
import type { users } from '../../db/schema';
import { AppError } from '../../errors';
import { recordSignInFailure, type SignInKeys, type SignInLimits } from '../attempts/sign-in-failures';
import { checkPhoneCode, consumePhoneCode } from '../phone-codes/check-phone-code';
import { issuePhoneCode } from '../phone-codes/issue-phone-code';
import { PHONE_CODE } from '../phone-codes/phone-code-policy';
import { authenticateUser } from './authenticate-user';

const CODE_NEEDED =
  "This account had many failed log-ins from elsewhere, so for now a password alone does not log in. If the password is right, we texted a code to the account's phone: enter it to log in. It is valid for 10 minutes.";
/** One answer for every code step that fails: it must not tell whether the password was right. */
const NOT_RIGHT = 'The code or the password is not right, or the code has expired. Check both, or log in again for a new code.';

export type GuardedSignIn =
  { status: 'signed_in'; user: typeof users.$inferSelect } | { status: 'code_needed'; answer: SignInCodeNeeded; holder: string };

/**
 * A sign-in for an email past its ceiling of failed sign-ins (decision 0028). Without a code: the
 * answer asks for one whether or not the password is right, and only a right password texts one
 * to the account's phone, bound to this browser (`holder`: the secret it presented); a wrong one
 * rehearses the same work. With a code: the password and this browser's code must both check out.
 * Every try counts as a failure until one signs in, so the ceiling still stops guessing, while the
 * holder, who has the phone, is never locked out.
 */
export async function guardedSignIn(
  db: Db,
  input: { email: string; password: string; code?: string | undefined },
  options: { now: Date; secret: string; simulator: boolean; holder: string | undefined; keys: SignInKeys; limits: SignInLimits },
): Promise<GuardedSignIn> {
  const { now, secret, holder } = options;
  const user = await authenticateUser(db, input).catch(() => null);
  await recordSignInFailure(db, options.keys, options.limits, now);
  const phoneNumber = user?.phoneNumber ?? '';
  if (input.code === undefined) {
    const issued = await issuePhoneCode(db, {
      phoneNumber,
      purpose: 'sign_in',
      payload: { userId: user?.id ?? null },
      now,
      secret,
      holder,
      rehearse: !user,
    });
    const text = user && issued.status === 'sent' ? issued.text : null;
    const answer: SignInCodeNeeded = {
      codeRequired: true,
      message: CODE_NEEDED,
      resendAfterSeconds: PHONE_CODE.resendAfterMs / 1000,
      simulatedText: options.simulator ? text : null,
    };
    return { status: 'code_needed', answer, holder: issued.holder };
  }
  const checked = await checkPhoneCode(db, { phoneNumber, purpose: 'sign_in', code: input.code, now, secret, holder });
  if (!user || typeof checked === 'string' || checked.payload.userId !== user.id) throw new AppError('bad_request', NOT_RIGHT);
  await db.transaction((tx) => consumePhoneCode(tx, checked.id));
  return { status: 'signed_in', user };
}
