import { and, count, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { messages } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * Confirmation e-mails one account may have Loop send for itself per hour (decision 0054). Each
 * goes to an address the account typed, perhaps a stranger's: the per-request limit of the
 * account's routes (50 per 15 minutes) would let it mail 200 strangers an hour.
 */
export const CONFIRMATIONS_PER_HOUR = 5;

/** Throws a 429 when the account has had CONFIRMATIONS_PER_HOUR confirmation e-mails in the last hour. */
export async function refuseTooManyConfirmations(tx: DbOrTx, userId: number, now: Date): Promise<void> {
  const [row] = await tx
    .select({ sent: count() })
    .from(messages)
    .where(
      and(
        eq(messages.userId, userId),
        eq(messages.channel, 'email'),
        eq(messages.kind, 'confirm_address'),
        gt(messages.createdAt, new Date(now.getTime() - 3_600_000)),
      ),
    );
  if ((row?.sent ?? 0) >= CONFIRMATIONS_PER_HOUR) {
    throw new AppError(
      'too_many_requests',
      `Loop sent ${CONFIRMATIONS_PER_HOUR} confirmation emails for your account in the last hour. Follow the link in the last one, or try again in an hour.`,
    );
  }
}
