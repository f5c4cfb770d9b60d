import { and, eq } from 'drizzle-orm';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { emailTokens, users } from '../../db/schema';
import { enqueueEmail } from '../../mail/outbox';
import { insertConfirmLink } from './confirm-address';
import { refuseTooManyConfirmations } from './confirmation-limit';

/** How long a link to confirm a new address works. */
const CHANGE_LINK_HOURS = 24;

/**
 * An account's new address (Profile, decision 0054): it becomes the account's only when its holder
 * follows the link e-mailed to it (confirmEmailAddress), so typing someone else's address, or a
 * text-only member's, takes nothing. The answer is the same whatever the address is (another
 * account's, unsubscribed, bouncing, new): no 409, and the link goes to any address Loop may mail;
 * whether the address is free is decided when the link is followed. A new request replaces the
 * account's earlier one. Returns whether a new address was asked for (false: it is the current one).
 */
export async function requestEmailChange(
  tx: DbOrTx,
  config: Pick<Config, 'PUBLIC_URL' | 'SESSION_SECRET'>,
  input: { userId: number; address: string; now: Date },
): Promise<boolean> {
  const address = input.address.trim().toLowerCase();
  await tx.delete(emailTokens).where(and(eq(emailTokens.purpose, 'change'), eq(emailTokens.userId, input.userId)));
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
  if (user?.email?.toLowerCase() === address) return false;
  await refuseTooManyConfirmations(tx, input.userId, input.now);
  const expiresAt = new Date(input.now.getTime() + CHANGE_LINK_HOURS * 3_600_000);
  const { url, tokenHash } = await insertConfirmLink(tx, config, { purpose: 'change', address, userId: input.userId, expiresAt });
  await enqueueEmail(tx, {
    kind: 'confirm_address',
    toAddress: address,
    subject: 'Confirm your new email address for Loop',
    text: [
      'Someone asked to use this address for their Loop account.',
      `If it was you, confirm it here within ${CHANGE_LINK_HOURS} hours: ${url}`,
      "If it wasn't you, ignore this email: the address stays as it is, and nothing more will come.",
    ].join('\n\n'),
    // One e-mail per request: each has its own token.
    idempotencyKey: `change:${input.userId}:${tokenHash.slice(0, 24)}`,
    userId: input.userId,
  });
  return true;
}
