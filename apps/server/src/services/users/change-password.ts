import { and, eq, ne } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { AppError } from '../../errors';
import { checkNewPassword, hashPassword, verifyPassword } from '../../lib/passwords';
import { hashToken } from '../../lib/tokens';
import {
  forgetSignInFailures,
  recordSignInFailure,
  signInStanding,
  type SignInKeys,
  type SignInLimits,
} from '../attempts/sign-in-failures';

const WRONG = 'Your current password is not right. Check it and try again, or log out and use "Forgot password?".';
const GUARDED =
  'This account had many failed log-ins, so its password can only be changed with a code texted to its phone for now: log out and use "Forgot password?".';

/**
 * The password in use, typed again on Profile before a change only its holder may make (a new
 * password, a new phone number; decisions 0044 and 0052). A wrong one counts as a failed sign-in
 * for the account's email and this address (decision 0013), so a stolen session cannot guess it
 * faster than the log-in form; past the account's ceiling (decision 0028) it is refused with
 * `guarded`, and only "Forgot password?" (a code to the phone) helps.
 */
export async function checkCurrentPassword(
  db: Db,
  user: { passwordHash: string | null },
  currentPassword: string,
  options: { now: Date; keys: SignInKeys; limits: SignInLimits; guarded: string },
): Promise<void> {
  const { now, keys, limits } = options;
  const standing = await signInStanding(db, keys, limits, now);
  if (standing.waitMs > 0) {
    const minutes = Math.max(1, Math.ceil(standing.waitMs / 60_000));
    throw new AppError(
      'too_many_requests',
      `Too many wrong passwords. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
    );
  }
  if (standing.guarded) throw new AppError('too_many_requests', options.guarded);
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    await recordSignInFailure(db, keys, limits, now);
    throw new AppError('bad_request', WRONG, [{ path: 'currentPassword', message: 'This is not your current password' }]);
  }
}

/**
 * Profile's "Change password": the password in use, then the new one (the same rules as sign-up),
 * stored as argon2id; every other session of the account ends, the one asking stays (decision
 * 0044).
 */
export async function changePassword(
  db: Db,
  user: { id: number; passwordHash: string | null },
  input: { currentPassword: string; newPassword: string },
  options: { now: Date; secret: string; sessionToken: string | null; keys: SignInKeys; limits: SignInLimits },
): Promise<void> {
  await checkNewPassword(input.newPassword);
  await checkCurrentPassword(db, user, input.currentPassword, { ...options, guarded: GUARDED });
  const passwordHash = await hashPassword(input.newPassword);
  await db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash }).where(eq(users.id, user.id));
    await endOtherSessions(tx, user.id, options.sessionToken, options.secret);
  });
  await forgetSignInFailures(db, options.keys);
}

/** Deletes every session of the account but this browser's (`sessionToken`), in the caller's transaction. */
export async function endOtherSessions(tx: DbOrTx, userId: number, sessionToken: string | null, secret: string): Promise<void> {
  const kept = sessionToken ? hashToken(sessionToken, secret) : '';
  await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.tokenHash, kept)));
}
