/**
 * Replies by e-mail become updates (decision 0049). Real MIME messages, shaped as Gmail,
 * Outlook and Apple Mail write them (test/fixtures/email/), go over a raw SMTP connection to the
 * listener on 127.0.0.1. SPF (RFC 7208), DKIM (RFC 6376) and DMARC (RFC 7489) are checked by
 * mailauth against the DNS records of helpers/mail-replies.ts: no real DNS is asked.
 */
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, messages } from '../../src/db/schema';
import type { SmtpListener } from '../../src/mail/smtp-listener';
import { optOutPhone } from '../../src/messaging/opt-outs';
import { replyAddressFor } from '../../src/services/email-replies/reply-address-for';
import { createTestApp, type TestContext } from '../helpers/app';
import { createLoop, createPerson, updatesOf } from '../helpers/messaging';
import { m4aMemo } from '../helpers/clips';
import { phoneJpeg } from '../helpers/photos';
import { asked, DOMAIN, fixture, giveEmail, sign, startTestListener } from '../helpers/mail-replies';
import { sendSmtp } from '../helpers/smtp-client';

let t: TestContext;
let listener: SmtpListener;
const errors: unknown[] = [];
let photo: Buffer;

/** Gives a member of "The Smiths" this e-mail address (giveEmail); returns their reply address. */
async function withEmail(person: Person, email: string, confirmed = true) {
  return { person, ...(await giveEmail(t.app.ctx.db, person, loopId, email, confirmed)) };
}

let loopId = 0;
type Person = Awaited<ReturnType<typeof createPerson>>;
const people: Record<string, Awaited<ReturnType<typeof withEmail>>> = {};

beforeAll(async () => {
  t = await createTestApp({ MAIL_REPLY_DOMAIN: DOMAIN, MAIL_REPLIES_PER_MEMBER_PER_HOUR: '4' });
  const db = t.app.ctx.db;
  const owner = await createPerson(db, { firstName: 'Grandpa' });
  const others = await Promise.all(['Ann', 'Bob', 'Carol', 'Dan', 'Eve', 'Fay'].map((firstName) => createPerson(db, { firstName })));
  loopId = (await createLoop(db, { name: 'The Smiths', memberIds: [owner.id, ...others.map((p) => p.id)] })).id;
  people.ann = await withEmail(others[0]!, 'ann.smith@gmail.com');
  people.bob = await withEmail(others[1]!, 'bob.jones@outlook.com');
  people.carol = await withEmail(others[2]!, 'carol.smith@icloud.com', false);
  people.dan = await withEmail(others[3]!, 'dan@family.example');
  people.eve = await withEmail(others[4]!, 'eve@gmail.com');
  people.fay = await withEmail(others[5]!, 'fay@gmail.com');
  photo = await phoneJpeg({ width: 1600, height: 1200 });
  listener = await startTestListener(t.app.ctx, errors);
});

afterAll(async () => {
  await listener?.close();
  await t?.close();
  expect(errors).toEqual([]);
});

const acksTo = (address: string) =>
  t.app.ctx.db
    .select()
    .from(messages)
    .where(and(eq(messages.toAddress, address), eq(messages.kind, 'reply_ack')));

async function expectPhotoWithoutMetadata(storageKeys: string[]) {
  expect(storageKeys.length).toBeGreaterThan(0);
  for (const key of storageKeys) {
    const bytes = await t.app.ctx.storage.get(key);
    expect(bytes).not.toBeNull();
    const meta = await sharp(bytes!).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    for (const word of ['GPS', 'iPhone', 'Apple', 'London']) expect(bytes!.includes(word)).toBe(false);
  }
}

describe('a reply by e-mail', () => {
  it('from Gmail (DKIM and SPF, DMARC p=reject) becomes an update with its photo, GPS gone, and one acknowledgement', async () => {
    // The photo as the phone wrote it: EXIF with the camera and a GPS position (helpers/photos.ts).
    expect((await sharp(photo).metadata()).exif?.includes('Apple')).toBe(true);
    const raw = await fixture('gmail-reply', people.ann!.address, { photo, signer: 'gmail.com' });
    const sent = await sendSmtp(listener.port, { from: 'ann.smith@gmail.com', to: [people.ann!.address], raw });
    expect(sent.rcpt.map((r) => r.code)).toEqual([250]);
    expect(sent.data?.code).toBe(250);

    const [update] = (await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === people.ann!.person.id);
    expect(update?.content).toBe('We went to the lake on Saturday and Tom caught his first fish! Photo attached.\n\nLove, Ann');
    expect(update?.media).toHaveLength(1);
    expect(update!.media[0]!.variants.map((v) => v.width)).toEqual([320, 640, 1280]);
    await expectPhotoWithoutMetadata(update!.media[0]!.variants.map((v) => v.key));

    const [inbound] = await t.app.ctx.db.select().from(messages).where(eq(messages.id, update!.messageId!));
    expect(inbound).toMatchObject({ direction: 'inbound', channel: 'email', status: 'processed', fromAddress: 'ann.smith@gmail.com' });
    expect(inbound?.toAddress).toBe(people.ann!.address);
    expect(inbound?.raw).toMatchObject({ subject: 'Re: The Smiths, November', auth: expect.stringContaining('dmarc=pass') });

    const acks = await acksTo('ann.smith@gmail.com');
    expect(acks).toHaveLength(1);
    expect(acks[0]?.body).toContain('Thanks Ann! Your update and photo went to "The Smiths".');
    expect(acks[0]?.raw).toMatchObject({ subject: 'Re: The Smiths, November' });

    // The sender delivers it again (it never heard the 250): accepted, nothing new.
    const again = await sendSmtp(listener.port, { from: 'ann.smith@gmail.com', to: [people.ann!.address], raw });
    expect(again.data?.code).toBe(250);
    expect((await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === people.ann!.person.id)).toHaveLength(1);
    expect(await acksTo('ann.smith@gmail.com')).toHaveLength(1);
  });

  it('from Outlook (SPF only, DMARC p=none) keeps the words above "From: ... Sent: ..." and the inline picture', async () => {
    const raw = await fixture('outlook-reply', people.bob!.address, { photo });
    const sent = await sendSmtp(listener.port, { from: 'bob.jones@outlook.com', to: [people.bob!.address], raw });
    expect(sent.data?.code).toBe(250);
    const [update] = (await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === people.bob!.person.id);
    expect(update?.content).toBe('Hello everyone, the new puppy arrived! Her name is Biscuit.\n\nBob');
    expect(update?.media).toHaveLength(1);
    await expectPhotoWithoutMetadata(update!.media[0]!.variants.map((v) => v.key));
    expect(await acksTo('bob.jones@outlook.com')).toHaveLength(1);
  });

  it('from Apple Mail (no DMARC policy, aligned DKIM) drops "Sent from my iPhone" and the quoted newsletter', async () => {
    const raw = await fixture('apple-mail-reply', people.carol!.address, { photo, signer: 'icloud.com' });
    const sent = await sendSmtp(listener.port, { from: 'carol.smith@icloud.com', to: [people.carol!.address], raw });
    expect(sent.data?.code).toBe(250);
    const [update] = (await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === people.carol!.person.id);
    expect(update?.content).toBe('Grandpa’s birthday cake, 80 candles 🎂\n\nCarol');
    expect(update?.media).toHaveLength(1);
    // Carol never confirmed the address the owner typed: the answer to her own reply still goes
    // to it (decision 0049), and nothing else does.
    expect(await acksTo('carol.smith@icloud.com')).toHaveLength(1);
  });
});

describe('a voice memo by e-mail', () => {
  it('goes through the clip pipeline (ffmpeg) as a texted one does, and the acknowledgement says so', async () => {
    const db = t.app.ctx.db;
    const hal = await createPerson(db, { firstName: 'Hal' });
    await db.insert(members).values({ loopId, userId: hal.id, status: 'active' });
    const { address } = await withEmail(hal, 'hal@gmail.com');
    const memo = m4aMemo(2);
    let raw = await fixture('gmail-reply', address, { photo: memo, from: 'Hal <hal@gmail.com>' });
    raw = raw.replace('Content-Type: image/jpeg; name="IMG_2041.jpg"', 'Content-Type: audio/mp4; name="Voice memo.m4a"');
    const sent = await sendSmtp(listener.port, { from: 'hal@gmail.com', to: [address], raw: await sign(raw, 'gmail.com') });
    expect(sent.data?.code).toBe(250);
    const [update] = (await updatesOf(db, loopId)).filter((u) => u.userId === hal.id);
    expect(update?.media.map((m) => m.contentType)).toEqual(['audio/mp4']);
    const [ack] = await acksTo('hal@gmail.com');
    expect(ack?.body).toContain('Your update and voice memo went to "The Smiths".');
  });
});

describe('the listener refuses', () => {
  it('a spoofed sender: DMARC fails (RFC 7489 section 6.7), nothing is stored, nothing is answered', async () => {
    const raw = await fixture('gmail-reply', people.dan!.address, { photo, from: 'Dan <dan@family.example>' });
    const sent = await sendSmtp(listener.port, { from: 'dan@family.example', to: [people.dan!.address], raw });
    expect(sent.rcpt.map((r) => r.code)).toEqual([250]);
    expect(sent.data?.code).toBe(550);
    expect(sent.data?.text).toBe('5.7.1 Not accepted: DMARC fail for family.example');
    expect((await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === people.dan!.person.id)).toEqual([]);
    expect(await acksTo('dan@family.example')).toEqual([]);
  });

  it('for now, when DNS fails (RFC 7489 section 6.6.3 temperror): 451, so the sender tries again later', async () => {
    const db = t.app.ctx.db;
    const ida = await createPerson(db, { firstName: 'Ida' });
    await db.insert(members).values({ loopId, userId: ida.id, status: 'active' });
    const { address } = await withEmail(ida, 'ida@flaky.example');
    const raw = await fixture('gmail-reply', address, { from: 'Ida <ida@flaky.example>' });
    const sent = await sendSmtp(listener.port, { from: 'ida@flaky.example', to: [address], raw });
    expect(sent.data?.code).toBe(451);
    expect(sent.data?.text).toMatch(/^4\.7\.0 /);
    expect((await updatesOf(db, loopId)).filter((u) => u.userId === ida.id)).toEqual([]);
  });

  it('an authenticated sender that is not the member', async () => {
    const raw = await fixture('gmail-reply', people.fay!.address, { photo, signer: 'gmail.com', from: 'Mallory <mallory@gmail.com>' });
    const sent = await sendSmtp(listener.port, { from: 'mallory@gmail.com', to: [people.fay!.address], raw });
    expect(sent.data).toEqual({ code: 550, text: '5.7.1 Not accepted: the sender is not this member' });
    expect((await updatesOf(t.app.ctx.db, loopId)).filter((u) => u.userId === people.fay!.person.id)).toEqual([]);
    expect(await acksTo('mallory@gmail.com')).toEqual([]);
  });

  it('unknown tokens, other shapes and other domains at RCPT, all with the same answer', async () => {
    const raw = await fixture('gmail-reply', 'x', { signer: 'gmail.com' });
    const sent = await sendSmtp(listener.port, {
      from: 'ann.smith@gmail.com',
      to: [
        `reply+${'0'.repeat(32)}@${DOMAIN}`,
        `reply+abc@${DOMAIN}`,
        `postmaster@${DOMAIN}`,
        people.ann!.address.replace(DOMAIN, 'example.org'),
      ],
      raw,
    });
    expect(sent.rcpt.map((r) => r.code)).toEqual([550, 550, 550, 550]);
    expect(new Set(sent.rcpt.map((r) => r.text)).size).toBe(1);
    expect(sent.rcpt[0]?.text).toBe('5.1.1 No such recipient here');
    expect(sent.data).toBeUndefined();
  });

  it('more than 5 recipients (452, RFC 5321 section 4.5.3.1.10) and a declared size over 25 MiB (552, RFC 1870)', async () => {
    const raw = await fixture('gmail-reply', 'x', { signer: 'gmail.com' });
    const many = ['ann', 'bob', 'carol', 'dan', 'fay', 'eve'].map((name) => people[name]!.address);
    const sent = await sendSmtp(listener.port, { from: 'ann.smith@gmail.com', to: many, raw, stopBeforeData: true });
    expect(sent.rcpt.map((r) => r.code)).toEqual([250, 250, 250, 250, 250, 452]);
    const big = await sendSmtp(listener.port, { from: 'ann.smith@gmail.com', to: [people.ann!.address], raw, mailParams: 'SIZE=30000000' });
    expect(big.mailFrom.code).toBe(552);
  });

  it('a member past MAIL_REPLIES_PER_MEMBER_PER_HOUR, with 451 (try later) after the checks, counted in the database', async () => {
    const raw = await fixture('gmail-reply', people.eve!.address, { signer: 'gmail.com', from: 'Eve <eve@gmail.com>' });
    const codes: (number | undefined)[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await sendSmtp(listener.port, { from: 'eve@gmail.com', to: [people.eve!.address], raw })).data?.code);
    expect(codes).toEqual([250, 250, 250, 250, 451]);
  });
});

describe('consent', () => {
  it('a member whose phone said STOP: the reply is kept, shared with no one, and not answered (decision 0014)', async () => {
    const db = t.app.ctx.db;
    const gus = await createPerson(db, { firstName: 'Gus' });
    await db.insert(members).values({ loopId, userId: gus.id, status: 'active' });
    const { memberId, address } = await withEmail(gus, 'gus@gmail.com');
    expect(await replyAddressFor(db, memberId, DOMAIN)).toBe(address);
    expect(address).toMatch(new RegExp(`^reply\\+[0-9a-f]{32}@${DOMAIN.replaceAll('.', '\\.')}$`));
    await optOutPhone(db, gus.phoneNumber, 'STOP', new Date());
    const raw = await fixture('gmail-reply', address, { signer: 'gmail.com', from: 'Gus <gus@gmail.com>' });
    const sent = await sendSmtp(listener.port, { from: 'gus@gmail.com', to: [address], raw });
    expect(sent.data?.code).toBe(250);
    expect((await updatesOf(db, loopId)).filter((u) => u.userId === gus.id)).toEqual([]);
    expect(await acksTo('gus@gmail.com')).toEqual([]);
    const [kept] = await db
      .select()
      .from(messages)
      .where(and(eq(messages.userId, gus.id), eq(messages.direction, 'inbound')));
    expect(kept).toMatchObject({ channel: 'email', status: 'ignored', error: 'Not shared: this phone opted out (STOP).' });
  });

  it('no real DNS was asked: every lookup went to the records above', () => {
    expect(asked.length).toBeGreaterThan(0);
    expect(asked).toContain('TXT _dmarc.gmail.com');
  });
});
