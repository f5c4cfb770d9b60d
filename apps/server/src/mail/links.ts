import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { mailDomain, mailReplyDomain, type Config } from '../config';
import type { DbOrTx } from '../db/client';
import { recordset } from '../db/recordset';
import { emailTokens } from '../db/schema';
import { hashToken } from '../lib/tokens';

/**
 * What a newsletter e-mail's links need (decisions 0047 and 0049): the site's address, the
 * unsubscribe links' secret (SESSION_SECRET), and the domain of members' reply addresses when
 * Loop takes replies by e-mail. Callers that queue no e-mail (sneak peeks, some tests) pass none.
 */
export interface MailLinks {
  publicUrl: string;
  secret: string;
  replyDomain?: string | undefined;
}

/** The e-mails' links from the configuration. */
export function mailLinksOf(config: Pick<Config, 'PUBLIC_URL' | 'SESSION_SECRET' | 'MAIL_INBOUND_PORT' | 'MAIL_REPLY_DOMAIN'>): MailLinks {
  return { publicUrl: config.PUBLIC_URL, secret: config.SESSION_SECRET, replyDomain: mailReplyDomain(config) };
}

/**
 * An address's unsubscribe token (decision 0047): an HMAC of the address under SESSION_SECRET, so
 * every e-mail to one address carries the same link, nobody without the secret can make one, and
 * nothing per e-mail needs storing. Its keyed hash is stored (email_tokens) to find the address.
 */
export function unsubscribeToken(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`email-unsubscribe:${address.toLowerCase()}`).digest('base64url');
}

/**
 * The same address's token for the mailto of List-Unsubscribe (RFC 2369), which the reply
 * listener reads (decision 0050): 128 bits of another HMAC in lower-case hex, because mail systems
 * may fold the case of an address, and "unsubscribe+" and 32 digits stay within RFC 5321's 64
 * characters of a local part. Its keyed hash is stored beside the link's.
 */
export function unsubscribeMailtoToken(secret: string, address: string): string {
  return createHmac('sha256', secret).update(`email-unsubscribe-mailto:${address.toLowerCase()}`).digest('hex').slice(0, 32);
}

/** unsubscribe+{token}@{replyDomain}: an e-mail to it unsubscribes the address (RFC 2369's mailto). */
export function unsubscribeMailbox(secret: string, address: string, replyDomain: string): string {
  return `unsubscribe+${unsubscribeMailtoToken(secret, address)}@${replyDomain}`;
}

export function unsubscribeUrl(config: Pick<Config, 'PUBLIC_URL' | 'SESSION_SECRET'>, address: string): string {
  return `${config.PUBLIC_URL}/email/unsubscribe/${unsubscribeToken(config.SESSION_SECRET, address)}`;
}

/** Stores the unsubscribe tokens' hashes of these addresses (once each), so their links work. */
export async function keepUnsubscribeTokens(db: DbOrTx, secret: string, addresses: readonly string[]): Promise<void> {
  const unique = [...new Set(addresses.map((a) => a.toLowerCase()))];
  if (unique.length === 0) return;
  const rows = unique.flatMap((address) =>
    [unsubscribeToken(secret, address), unsubscribeMailtoToken(secret, address)].map((token) => ({
      token_hash: hashToken(token, secret),
      address,
    })),
  );
  await db.execute(sql`
    insert into ${emailTokens} (token_hash, purpose, address)
    select v.token_hash, 'unsubscribe', v.address from ${recordset('v', { token_hash: 'text', address: 'text' }, rows)}
    on conflict (token_hash) do nothing`);
}

/** The one address of MAIL_FROM ("Loop <loop@x>" → "loop@x"). */
export function fromAddress(from: string): string {
  return (/<([^>]+)>/.exec(from)?.[1] ?? from).trim();
}

/**
 * The Message-ID of an e-mail row: the same for every attempt (a receiver that got it before sees
 * the same e-mail again), unique per database (row id) and per install (a keyed hash of it).
 */
export function messageIdOf(secret: string, rowId: number, from: string): string {
  const tag = createHmac('sha256', secret).update(`message-id:${rowId}`).digest('base64url').slice(0, 16).replace(/[-_]/g, 'x');
  return `<loop.${rowId}.${tag}@${mailDomain(from)}>`;
}
