import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { emailSuppressions, emailTokens } from '../../db/schema';
import { hashToken } from '../../lib/tokens';

async function unsubscribeAddress(db: DbOrTx, secret: string, token: string): Promise<string | undefined> {
  const [row] = await db
    .select({ address: emailTokens.address })
    .from(emailTokens)
    .where(and(eq(emailTokens.tokenHash, hashToken(token, secret)), eq(emailTokens.purpose, 'unsubscribe')));
  return row?.address;
}

/** unsubscribe+{32 hex digits}@domain: the mailto of List-Unsubscribe (mail/links.ts unsubscribeMailbox). */
const MAILTO_LOCAL_PART = /^unsubscribe\+([0-9a-f]{32})$/;

/** The token of an unsubscribe mailbox of `replyDomain`, or null: another shape or domain. */
export function unsubscribeMailboxToken(address: string, replyDomain: string): string | null {
  const at = address.lastIndexOf('@');
  if (at < 0 || address.slice(at + 1).toLowerCase() !== replyDomain.toLowerCase()) return null;
  return MAILTO_LOCAL_PART.exec(address.slice(0, at).toLowerCase())?.[1] ?? null;
}

export async function unsubscribeLinkIsValid(db: DbOrTx, secret: string, token: string): Promise<boolean> {
  return (await unsubscribeAddress(db, secret, token)) !== undefined;
}

/**
 * Unsubscribes the address of an unsubscribe link (RFC 8058 one-click, the page's button, or an
 * e-mail to the mailto of List-Unsubscribe, RFC 2369, which the reply listener takes):
 * it joins the suppression list, so no e-mail of any kind goes to it again (send-emails.ts
 * checks at the moment of sending too: an e-mail already queued stops). Doing it twice is the
 * same as once. False: not a valid link.
 */
export async function unsubscribeByLink(db: DbOrTx, secret: string, token: string): Promise<boolean> {
  const address = await unsubscribeAddress(db, secret, token);
  if (address === undefined) return false;
  await suppressAddress(db, address);
  return true;
}

/** Puts an address on the suppression list as unsubscribed (a link, or a reply that asked to stop). */
export async function suppressAddress(db: DbOrTx, address: string, detail?: string): Promise<void> {
  await db
    .insert(emailSuppressions)
    .values({ address: address.toLowerCase(), reason: 'unsubscribed', detail: detail ?? null })
    .onConflictDoNothing({ target: emailSuppressions.address });
}
