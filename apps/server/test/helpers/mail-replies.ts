/**
 * What the e-mail reply tests share (decision 0049): the DNS they publish for SPF (RFC 7208), DKIM
 * (RFC 6376) and DMARC (RFC 7489), answered through mailauth's `resolver` option so that no real
 * DNS is asked; the fixtures of test/fixtures/email/ with their placeholders filled; DKIM
 * signatures made with mailauth's own signer and a key made here; members given an address.
 */
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { and, eq } from 'drizzle-orm';
import { dkimSign } from 'mailauth/lib/dkim/sign';
import { expect } from 'vitest';
import type { Db } from '../../src/db/client';
import { startReplyListener } from '../../src/jobs/reply-listener';
import type { SmtpListener } from '../../src/mail/smtp-listener';
import type { MessagingContext } from '../../src/messaging/context';
import { members, users } from '../../src/db/schema';
import { replyAddressFor } from '../../src/services/email-replies/reply-address-for';

export const DOMAIN = 'replies.example.com';
const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PUBLIC_KEY = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
const PRIVATE_KEY = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** The DNS this test publishes (TXT records by name); every other question is answered NXDOMAIN. */
const TXT = new Map<string, string>([
  // Gmail: SPF and DKIM, DMARC p=reject. The test client connects from 127.0.0.1.
  ['gmail.com', 'v=spf1 ip4:127.0.0.1 -all'],
  ['20230601._domainkey.gmail.com', `v=DKIM1; k=rsa; p=${PUBLIC_KEY}`],
  ['_dmarc.gmail.com', 'v=DMARC1; p=reject; rua=mailto:dmarc@gmail.com'],
  // Outlook: SPF alone passes DMARC (aligned MAIL FROM), p=none.
  ['outlook.com', 'v=spf1 ip4:127.0.0.1 -all'],
  ['_dmarc.outlook.com', 'v=DMARC1; p=none'],
  // iCloud here publishes no DMARC policy: its aligned DKIM signature vouches for it.
  ['sig1._domainkey.icloud.com', `v=DKIM1; k=rsa; p=${PUBLIC_KEY}`],
  // A family domain whose mail never comes from 127.0.0.1, with DMARC p=reject.
  ['family.example', 'v=spf1 ip4:192.0.2.1 -all'],
  ['_dmarc.family.example', 'v=DMARC1; p=reject'],
]);
/** Every DNS question asked, to show that none went elsewhere. */
export const asked: string[] = [];
export async function resolver(name: string, type: string): Promise<string[][]> {
  asked.push(`${type} ${name}`);
  // A domain whose DNS server fails for now (SERVFAIL): a temporary error, not a verdict.
  if (name.toLowerCase().endsWith('flaky.example')) throw Object.assign(new Error(`queryTxt ESERVFAIL ${name}`), { code: 'ESERVFAIL' });
  const record = type === 'TXT' ? TXT.get(name.toLowerCase()) : undefined;
  if (record === undefined) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  return [[record]];
}

/** A fixture with its placeholders filled, CRLF line ends, optionally DKIM-signed by `signer`. */
export async function fixture(name: string, to: string, options: { photo?: Buffer; signer?: string; from?: string } = {}): Promise<string> {
  const photo = (options.photo ?? Buffer.alloc(0)).toString('base64').replace(/.{76}(?=.)/g, '$&\r\n');
  let raw = readFileSync(new URL(`../fixtures/email/${name}.eml`, import.meta.url), 'utf8')
    .replaceAll('{{TO}}', to)
    .replace('{{PHOTO}}', photo)
    .replace(/\r?\n/g, '\r\n');
  if (options.from) raw = raw.replace(/^From: .*$/m, `From: ${options.from}`);
  if (!options.signer) return raw;
  return sign(raw, options.signer);
}

/** The message with a DKIM-Signature of this domain in front, made by mailauth's own signer. */
export async function sign(raw: string, domain: string): Promise<string> {
  const selector = domain === 'gmail.com' ? '20230601' : 'sig1';
  const key = { signingDomain: domain, selector, privateKey: PRIVATE_KEY };
  // The signer reads `signatureData`; its type asks for the same fields at the top as well.
  const signed = await dkimSign(raw, { ...key, signatureData: [key] });
  expect(signed.errors).toEqual([]);
  expect(signed.signatures).toMatch(/^DKIM-Signature: /);
  return signed.signatures + raw;
}

/**
 * Gives a member of this Loop this e-mail address, confirmed as by the link (decision 0047)
 * unless `confirmed` is false (an address the owner typed); returns their reply address.
 */
export async function giveEmail(db: Db, person: { id: number }, loopId: number, email: string, confirmed = true) {
  const confirmation = confirmed ? { emailConfirmedAddress: email, emailConfirmedAt: new Date() } : {};
  await db
    .update(users)
    .set({ email, ...confirmation })
    .where(eq(users.id, person.id));
  const [row] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.userId, person.id), eq(members.loopId, loopId)));
  if (!row) throw new Error('not a member');
  return { memberId: row.id, address: await replyAddressFor(db, row.id, DOMAIN) };
}

/** The reply listener on a free port of 127.0.0.1, asking this DNS; what it logs as an error goes to `errors`. */
export function startTestListener(ctx: MessagingContext, errors: unknown[]): Promise<SmtpListener> {
  return startReplyListener(ctx, {
    port: 0,
    host: '127.0.0.1',
    resolver,
    closeTimeoutMs: 500,
    log: { info: () => {}, warn: () => {}, error: (obj) => errors.push(obj) },
  });
}
