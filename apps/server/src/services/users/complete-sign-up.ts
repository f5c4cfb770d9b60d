import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';
import { checkPhoneCode, codeProblemError, consumePhoneCode } from '../phone-codes/check-phone-code';
import { freeEmail } from './free-email';
import type { SignUpPayload } from './start-sign-up';
import { lookUpPhoneTimeZone } from '../../messaging/time-zones';
import { ownPreference } from '../../messaging/whatsapp-opt-in';

type UserRow = typeof users.$inferSelect;

const EMAIL_TAKEN = 'This email is already used by another account. Go back and use another email, or log in with it.';

/**
 * The one place where a phone's proven holder becomes an account: the code texted to
 * the phone checks out in the browser that sent the form, then, in one transaction, either a new
 * account is created or the text-only member who has this phone (added by an owner or an invite)
 * becomes the account: same person, same memberships and updates, with the name, email and
 * password typed now. Proving the phone is not saying yes to anyone's Loop: its pending
 * invitations stay pending, for the holder to accept or decline one by one on My Loops or by text
 * (decision 0035).
 */
export async function completeSignUp(
  db: Db,
  input: { phoneNumber: string; code: string },
  options: { now: Date; secret: string; staffPhones: readonly string[]; holder: string | undefined },
): Promise<{ user: UserRow; claimed: boolean }> {
  const { phoneNumber } = input;
  const { now, secret } = options;
  // Only in the browser that sent the form: a code typed anywhere else finds no sign-up (decision 0027).
  const checked = await checkPhoneCode(db, { phoneNumber, purpose: 'sign_up', code: input.code, now, secret, holder: options.holder });
  if (typeof checked === 'string') throw codeProblemError(checked);
  const form = checked.payload as unknown as SignUpPayload;
  try {
    return await db.transaction(async (tx) => {
      await consumePhoneCode(tx, checked.id);
      const [holder] = await tx.select().from(users).where(eq(users.phoneNumber, phoneNumber)).for('update');
      if (holder?.passwordHash) {
        throw new AppError(
          'conflict',
          'This phone number already has an account. Log in, or use "Forgot password?" to set a new password.',
        );
      }
      await freeEmail(tx, form.email, holder?.id, EMAIL_TAKEN);
      const values = {
        email: form.email,
        passwordHash: form.passwordHash,
        firstName: form.firstName,
        lastName: form.lastName,
        // The holder of the phone chose it on their own form: WhatsApp is their opt-in (decision 0060).
        ...ownPreference(form.messagingPreference, options.now),
        phoneProvenAt: options.now,
        ...(options.staffPhones.includes(phoneNumber) ? { isStaff: true } : {}),
      };
      if (holder) {
        const [claimed] = await tx.update(users).set(values).where(eq(users.id, holder.id)).returning();
        if (!claimed) throw new Error('update returned no row');
        return { user: claimed, claimed: true };
      }
      const [created] = await tx
        .insert(users)
        .values({ ...values, phoneNumber, phoneTimeZone: await lookUpPhoneTimeZone(phoneNumber), createdAt: options.now })
        .returning();
      if (!created) throw new Error('insert returned no row');
      return { user: created, claimed: false };
    });
  } catch (error) {
    if (uniqueViolation(error) !== null) {
      throw new AppError('conflict', 'This phone number or email was just taken by another sign-up. Please start again.');
    }
    throw error;
  }
}
