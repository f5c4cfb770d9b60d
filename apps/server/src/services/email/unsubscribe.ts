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

export async function unsubscribeLinkIsValid(db: DbOrTx, secret: string, token: string): Promise<boolean> {
  return (await unsubscribeAddress(db, secret, token)) !== undefined;
}

/**
 * Unsubscribes the address of an unsubscribe link (RFC 8058 one-click, or the page's button):
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
