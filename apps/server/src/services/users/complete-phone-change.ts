import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { consentQuestions, messages, phoneCodes, users } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';
import { LOOP_WIDE_KINDS } from '../../messaging/recipients';
import { lookUpPhoneTimeZone } from '../../messaging/time-zones';
import { isOptedOut } from '../../messaging/opt-outs';
import { insertOutbound } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';
import { checkPhoneCode, CODE_GONE, codeProblemError, consumePhoneCode } from '../phone-codes/check-phone-code';
import { endOtherSessions } from './change-password';

/** Said only to the proven holder of the number (they got the code), never which account or member has it. */
export const NUMBER_TAKEN =
  'This phone number already belongs to someone else in Loop (another account, or a member added to a loop), so it cannot move to this account. If that is you, log in or sign up with it; otherwise use another number.';

/**
 * Profile's "Change phone number", second step (decision 0044): the code texted to the new number
 * checks out in this browser, for this account; then, in one transaction, the account takes the
 * number. Everything that belongs to the account moves with it at once, since it hangs on the
 * account, not the number: Loops it owns, memberships and their consent, its updates and
 * preferences; texts still queued to the old number for its Loops go to the new one. What belongs
 * to a number stays with the number: its STOP, the carrier's verdict, WhatsApp's window, the open
 * "which Loop?" question and its codes. A number another user row has is refused (NUMBER_TAKEN),
 * also when two accounts prove one number at once (the unique index decides).
 */
export async function completePhoneChange(
  db: Db,
  user: { id: number },
  input: { phoneNumber: string; code: string },
  options: { now: Date; secret: string; staffPhones: readonly string[]; holder: string | undefined; sessionToken: string | null },
): Promise<typeof users.$inferSelect> {
  const { phoneNumber } = input;
  const { now } = options;
  const checked = await checkPhoneCode(db, {
    phoneNumber,
    purpose: 'change_phone',
    code: input.code,
    now,
    secret: options.secret,
    holder: options.holder,
  });
  if (typeof checked === 'string') throw codeProblemError(checked);
  // Asked for by another account signed in in this browser: no code of this account waits.
  if (checked.payload.userId !== user.id) throw new AppError('bad_request', CODE_GONE);
  const phoneTimeZone = await lookUpPhoneTimeZone(phoneNumber);
  try {
    return await db.transaction(async (tx) => {
      await consumePhoneCode(tx, checked.id);
      const [current] = await tx.select({ phoneNumber: users.phoneNumber }).from(users).where(eq(users.id, user.id)).for('update');
      if (!current) throw new AppError('not_found', 'This account no longer exists');
      const [other] = await tx.select({ id: users.id }).from(users).where(eq(users.phoneNumber, phoneNumber)).for('update');
      if (other) throw new AppError('conflict', other.id === user.id ? 'This is already your phone number.' : NUMBER_TAKEN);
      const old = current.phoneNumber;
      const [moved] = await tx
        .update(users)
        .set({
          phoneNumber,
          phoneProvenAt: now,
          phoneTimeZone,
          // WhatsApp's window and its refusal were the old number's.
          lastWhatsappInboundAt: null,
          whatsappRefusedAt: null,
          // As at sign-up and reset: the proven holder of a staff phone is staff.
          ...(options.staffPhones.includes(phoneNumber) ? { isStaff: true } : {}),
        })
        .where(eq(users.id, user.id))
        .returning();
      if (!moved) throw new Error('update returned no row');
      // The account's Loop texts not yet sent go to its number now; the old number gets none of them.
      await tx
        .update(messages)
        .set({ toAddress: phoneNumber, updatedAt: now })
        .where(
          and(
            eq(messages.userId, user.id),
            eq(messages.toAddress, old),
            eq(messages.direction, 'outbound'),
            eq(messages.status, 'queued'),
            inArray(messages.kind, [...LOOP_WIDE_KINDS]),
          ),
        );
      // A question the old phone was asked, and codes sent to it for this account, answer nothing now.
      await tx.delete(consentQuestions).where(eq(consentQuestions.phoneNumber, old));
      await tx.delete(phoneCodes).where(and(eq(phoneCodes.phoneNumber, old), inArray(phoneCodes.purpose, ['sign_in', 'reset_password'])));
      // A stolen session must not keep the account: the old phone is told, and every other
      // session ends (decision 0052). A STOP on the old phone is respected as for every text.
      if (!(await isOptedOut(tx, old))) {
        await insertOutbound(tx, {
          channel: 'sms',
          toAddress: old,
          fromAddress: '',
          kind: 'account_notice',
          body: replies.phoneNumberChanged(phoneNumber.slice(-4)),
          idempotencyKey: `phone-changed:${user.id}:${now.getTime()}`,
          userId: null,
          loopId: null,
          mediaUrls: [],
        });
      }
      await endOtherSessions(tx, user.id, options.sessionToken, options.secret);
      return moved;
    });
  } catch (error) {
    if (uniqueViolation(error) !== null) throw new AppError('conflict', NUMBER_TAKEN);
    throw error;
  }
}
