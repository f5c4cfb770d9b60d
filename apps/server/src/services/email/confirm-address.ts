import { and, eq, gt, inArray, isNotNull, ne, or, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db, DbOrTx } from '../../db/client';
import { emailSuppressions, emailTokens, hashedEmailSuppressions, users } from '../../db/schema';
import { hashToken, randomToken } from '../../lib/tokens';
import { enqueueEmail, suppressionHashSql } from '../../mail/outbox';
import { escapeHtml } from '../../publishing/html';
import { freeEmail } from '../users/free-email';

/** How long a confirmation link works. */
const CONFIRM_LINK_DAYS = 30;

type LinkConfig = Pick<Config, 'PUBLIC_URL' | 'SESSION_SECRET'>;

/** A new link to /email/confirm (its token's hash stored, never the token). */
export async function insertConfirmLink(
  tx: DbOrTx,
  config: LinkConfig,
  link: { purpose: 'confirm' | 'change'; address: string; userId: number; expiresAt: Date },
): Promise<{ url: string; tokenHash: string }> {
  const token = randomToken();
  const tokenHash = hashToken(token, config.SESSION_SECRET);
  await tx.insert(emailTokens).values({ tokenHash, ...link });
  return { url: `${config.PUBLIC_URL}/email/confirm/${token}`, tokenHash };
}

/**
 * Sends one confirmation link to a person's address (double opt-in, decision 0047), unless it is
 * confirmed already: one e-mail per address, ever (its key), until it is confirmed, and nothing
 * else goes to it meanwhile (enqueueEmail refuses other kinds). `addedBy`: the address was typed
 * by someone else (an owner adding a member), and the e-mail says who and for which Loop.
 * Returns whether a confirmation e-mail was queued.
 */
export async function requestEmailConfirmation(
  tx: DbOrTx,
  config: LinkConfig,
  input: {
    userId: number;
    now: Date;
    addedBy?: { name: string; loopName: string; loopId: number };
    /** The Loop whose newsletter they chose on its join page: named in the e-mail. */
    loop?: { name: string; id: number };
  },
): Promise<boolean> {
  const [user] = await tx
    .select({ email: users.email, confirmed: users.emailConfirmedAddress })
    .from(users)
    .where(eq(users.id, input.userId));
  const address = user?.email?.toLowerCase();
  if (!address || user?.confirmed === address) return false;
  const expiresAt = new Date(input.now.getTime() + CONFIRM_LINK_DAYS * 86_400_000);
  const { url, tokenHash } = await insertConfirmLink(tx, config, { purpose: 'confirm', address, userId: input.userId, expiresAt });
  const subject = input.addedBy
    ? `${input.addedBy.name} added you to ${input.addedBy.loopName}'s newsletter: confirm`
    : 'Confirm your email address for Loop';
  const loopName = input.addedBy?.loopName ?? input.loop?.name;
  const lines = input.addedBy
    ? {
        why: `${input.addedBy.name} added this address to get ${input.addedBy.loopName}'s newsletter from Loop by email.`,
        ask: 'To get it, confirm here:',
        ignore: "If you don't want it, ignore this email: you will get nothing more from Loop.",
      }
    : {
        why: `You asked to get ${loopName ? `${loopName}'s newsletter` : 'the newsletter'} from Loop by email.`,
        ask: 'Confirm this address here:',
        ignore: "If it wasn't you, ignore this email: nothing more will come.",
      };
  const text = [lines.why, `${lines.ask} ${url}`, lines.ignore].join('\n\n');
  const html = confirmationHtml(subject, lines, url, loopName);
  const id = await enqueueEmail(tx, {
    kind: 'confirm_address',
    toAddress: address,
    subject,
    text,
    html,
    idempotencyKey: `confirm:${input.userId}:${address}`,
    userId: input.userId,
    ...(input.addedBy ? { loopId: input.addedBy.loopId } : input.loop ? { loopId: input.loop.id } : {}),
  });
  if (id === null) {
    await tx.delete(emailTokens).where(eq(emailTokens.tokenHash, tokenHash));
    return false;
  }
  await tx.update(users).set({ emailConfirmSentAt: input.now }).where(eq(users.id, input.userId));
  return true;
}

/** The confirmation as HTML: the same words, the Loop named, and the link a button a person can tap. */
function confirmationHtml(subject: string, lines: { why: string; ignore: string }, url: string, loopName: string | undefined): string {
  const button = loopName ? `Confirm and get ${loopName}'s newsletter` : 'Confirm this address';
  const p = 'margin:0 0 16px;font-family:Arial,sans-serif;font-size:16px;line-height:1.5;color:#2b2622';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#fffdf8">
<p style="${p}">${escapeHtml(lines.why)}</p>
<p style="${p}"><a href="${escapeHtml(url)}" style="display:inline-block;padding:12px 20px;border-radius:8px;background:#a3442a;color:#ffffff;text-decoration:none;font-weight:700">${escapeHtml(button)}</a></p>
<p style="${p};font-size:14px;color:#6f6259">Or open this link: <a href="${escapeHtml(url)}" style="color:#a3442a">${escapeHtml(url)}</a></p>
<p style="${p};font-size:14px;color:#6f6259">${escapeHtml(lines.ignore)}</p>
</body></html>
`;
}

/**
 * The valid confirmation link's token row, or undefined (unknown, expired, or the account's address
 * changed since). A `change` link (requestEmailChange) names the address the account asked for.
 */
async function confirmToken(db: DbOrTx, secret: string, token: string, now: Date) {
  const [row] = await db
    .select({ tokenHash: emailTokens.tokenHash, address: emailTokens.address, userId: emailTokens.userId, purpose: emailTokens.purpose })
    .from(emailTokens)
    .innerJoin(
      users,
      and(eq(users.id, emailTokens.userId), or(eq(emailTokens.purpose, 'change'), sql`lower(${users.email}) = ${emailTokens.address}`)),
    )
    .where(
      and(
        eq(emailTokens.tokenHash, hashToken(token, secret)),
        inArray(emailTokens.purpose, ['confirm', 'change']),
        gt(emailTokens.expiresAt, now),
      ),
    );
  return row;
}

export async function confirmLinkIsValid(db: DbOrTx, secret: string, token: string, now: Date): Promise<boolean> {
  return (await confirmToken(db, secret, token, now)) !== undefined;
}

/**
 * Follows a confirmation link (the page's button): the account's address is confirmed, and an
 * earlier unsubscribe of it is lifted (this is a new yes); a bounce stays. A `change` link makes
 * the address the account's first (decision 0054): an address an owner typed for a text-only
 * member gives way, another account's does not (`taken`). False: not a valid link.
 */
export async function confirmEmailAddress(db: Db, secret: string, token: string, now: Date): Promise<boolean | 'taken'> {
  return db.transaction(async (tx) => {
    const row = await confirmToken(tx, secret, token, now);
    if (!row?.userId) return false;
    if (row.purpose === 'change') {
      const [holder] = await tx
        .select({ id: users.id })
        .from(users)
        .where(and(sql`lower(${users.email}) = ${row.address}`, ne(users.id, row.userId), isNotNull(users.passwordHash)));
      if (holder) return 'taken';
      await freeEmail(tx, row.address, row.userId, 'taken');
      await tx.update(users).set({ email: row.address }).where(eq(users.id, row.userId));
      await tx.delete(emailTokens).where(and(eq(emailTokens.purpose, 'change'), eq(emailTokens.userId, row.userId)));
    }
    await tx.update(users).set({ emailConfirmedAddress: row.address, emailConfirmedAt: now }).where(eq(users.id, row.userId));
    await tx.delete(emailSuppressions).where(and(eq(emailSuppressions.address, row.address), eq(emailSuppressions.reason, 'unsubscribed')));
    // A deleted account's unsubscribe, kept hashed, is lifted by this new yes too (decision 0050).
    await tx
      .delete(hashedEmailSuppressions)
      .where(
        and(
          eq(hashedEmailSuppressions.addressHash, suppressionHashSql(sql`${row.address}::text`)),
          eq(hashedEmailSuppressions.reason, 'unsubscribed'),
        ),
      );
    await tx.delete(emailTokens).where(and(eq(emailTokens.purpose, 'confirm'), eq(emailTokens.address, row.address)));
    return true;
  });
}
