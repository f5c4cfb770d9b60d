import type { LookupFunction } from 'node:net';
import { describe, expect, it } from 'vitest';
import { sweepUntilIdle, startMessageWorker } from '../../src/jobs/message-worker';
import { ingestInbound } from '../../src/messaging/ingest-inbound';
import { fetchMedia } from '../../src/messaging/fetch-media';
import { isPrivateAddress, refuseMediaUrl } from '../../src/messaging/media-policy';
import { JPEG, createLoop, createPerson, textsTo, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { mmsParams, postWebhook, sid, smsParams } from '../helpers/twilio-fixtures';

const env = useFakeTwilioApp();

const policy = () => ({ accountSid: env.fake.accountSid, authToken: env.fake.authToken, trustedOrigin: env.fake.url });
const mediaPath = () => `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`;
/** DNS that answers every name with one address. */
const resolvesTo =
  (address: string): LookupFunction =>
  (_hostname, _options, callback) =>
    (callback as (error: null, addresses: { address: string; family: number }[]) => void)(null, [{ address, family: 4 }]);

describe('fetchMedia refuses', () => {
  it('http:// URLs', async () => {
    expect(await fetchMedia('http://api.twilio.com/2010-04-01/Accounts/AC1/Messages/MM1/Media/ME1', policy())).toEqual({
      ok: false,
      reason: 'only https:// media is fetched, not http:',
      retryable: false,
    });
  });

  it('hosts that are not Twilio’s', async () => {
    const result = await fetchMedia('https://evil.example.com/cat.jpg', policy());
    expect(result).toMatchObject({ ok: false, reason: 'evil.example.com is not a Twilio media host' });
    expect(refuseMediaUrl(new URL('https://api.twilio.com.evil.example/x'), policy())).toMatch(/not a Twilio media host/);
    expect(refuseMediaUrl(new URL('https://s3-external-1.amazonaws.com/other-bucket/x'), policy())).toMatch(/not a Twilio media host/);
  });

  it('the cloud metadata address 169.254.169.254, as a URL or behind a Twilio name', async () => {
    expect(await fetchMedia('https://169.254.169.254/latest/meta-data/', policy())).toMatchObject({ ok: false, retryable: false });
    const viaDns = await fetchMedia('https://media.twiliocdn.com/photo.jpg', policy(), { lookup: resolvesTo('169.254.169.254') });
    expect(viaDns).toEqual({ ok: false, reason: 'media.twiliocdn.com resolves to a private address (169.254.169.254)', retryable: false });
    for (const address of ['10.1.2.3', '127.0.0.1', '192.168.0.10', '172.20.0.1', '::1', 'fe80::1', 'fd00::1', '::ffff:169.254.169.254']) {
      expect(isPrivateAddress(address)).toBe(true);
    }
    expect(isPrivateAddress('54.172.60.1')).toBe(false);
  });

  it('a redirect to another host', async () => {
    const url = env.fake.addRedirect(mediaPath(), 'http://localhost:9/stolen.jpg');
    expect(await fetchMedia(url, policy())).toEqual({ ok: false, reason: 'only https:// media is fetched, not http:', retryable: false });
    const elsewhere = env.fake.addRedirect(mediaPath(), 'https://evil.example.com/x.jpg');
    expect(await fetchMedia(elsewhere, policy())).toMatchObject({ ok: false, reason: 'evil.example.com is not a Twilio media host' });
  });

  it('files over 5 MB', async () => {
    const big = env.fake.addMedia(mediaPath(), Buffer.concat([JPEG, Buffer.alloc(5 * 1024 * 1024)]), 'image/jpeg');
    expect(await fetchMedia(big, policy())).toMatchObject({ ok: false, reason: 'it is larger than 5 MB' });
  });
});

describe('fetchMedia copies', () => {
  it('from the configured Twilio base URL on 127.0.0.1, with Basic auth, following a redirect there', async () => {
    const target = env.fake.addMedia(mediaPath(), JPEG, 'image/jpeg');
    const url = env.fake.addRedirect(mediaPath(), target);
    const result = await fetchMedia(url, policy());
    expect(result).toMatchObject({ ok: true, bytes: JPEG });
    expect(env.fake.mediaRequests.at(-1)?.authorization).toBe(
      `Basic ${Buffer.from(`${env.fake.accountSid}:${env.fake.authToken}`).toString('base64')}`,
    );
  });

  it('but not from 127.0.0.1 when it is not the configured base URL', async () => {
    const url = env.fake.addMedia(mediaPath(), JPEG, 'image/jpeg');
    expect(await fetchMedia(url, { accountSid: 'AC1', authToken: 'x' })).toMatchObject({ ok: false, retryable: false });
  });
});

describe('refused photos in a text', () => {
  it('are skipped, the text is kept, and the reply says a photo could not be saved', async () => {
    const person = await createPerson(env.t.testDb.database.db, { firstName: 'Lin' });
    const loop = await createLoop(env.t.testDb.database.db, { name: 'Safe', memberIds: [person.id] });
    const good = env.fake.addMedia(mediaPath(), JPEG, 'image/jpeg');
    const params = mmsParams({
      accountSid: env.fake.accountSid,
      from: person.phoneNumber,
      body: 'Two photos',
      media: [
        { url: good, contentType: 'image/jpeg' },
        { url: 'https://169.254.169.254/latest/meta-data/iam', contentType: 'image/jpeg' },
      ],
    });
    await postWebhook(env.t.app, '/api/webhooks/twilio/messages', params, { authToken: env.fake.authToken });
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(env.t.testDb.database.db, loop.id);
    expect(update?.media).toHaveLength(1);
    expect((await textsTo(env.t.testDb.database.db, person.phoneNumber))[0]?.body).toBe(
      'Thanks Lin! Your update and photo went to "Safe". One photo couldn\'t be saved: it could not be downloaded.',
    );
  });
});

describe('the worker while a photo downloads or converts', () => {
  async function until(condition: () => Promise<boolean> | boolean, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await condition())) {
      if (Date.now() > deadline) throw new Error('timed out');
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  it("stores other senders' texts meanwhile: a slow photo holds up only its own sender", async () => {
    const db = env.db();
    const slow = await createPerson(db, { firstName: 'Sol' });
    const quick = await createPerson(db, { firstName: 'Quinn' });
    const loop = await createLoop(db, { name: 'Side by side', memberIds: [slow.id, quick.id] });
    const path = mediaPath();
    const photo = env.fake.addHeldMedia(path, JPEG, 'image/jpeg');
    const errors: unknown[] = [];
    const worker = startMessageWorker(env.t.app.ctx, { pollMs: 50, onError: (error) => errors.push(error) });
    try {
      const params = mmsParams({
        accountSid: env.fake.accountSid,
        from: slow.phoneNumber,
        body: 'The new kitchen',
        media: [{ url: photo.url, contentType: 'image/jpeg' }],
      });
      await ingestInbound(db, params, new Date());
      await ingestInbound(db, smsParams({ accountSid: env.fake.accountSid, from: slow.phoneNumber, body: 'And the garden' }), new Date());
      // The photo's download has started, and waits.
      await until(() => env.fake.mediaRequests.some((r) => r.path === path));
      await ingestInbound(
        db,
        smsParams({ accountSid: env.fake.accountSid, from: quick.phoneNumber, body: 'Passed my driving test' }),
        new Date(),
      );
      await until(async () => (await updatesOf(db, loop.id)).length > 0);
      // Quinn's text did not wait for Sol's photo; Sol's second text waits for the first.
      expect((await updatesOf(db, loop.id)).map((u) => u.content)).toEqual(['Passed my driving test']);
      photo.release();
      await until(async () => (await updatesOf(db, loop.id)).length === 3);
      const contents = (await updatesOf(db, loop.id)).map((u) => u.content);
      expect(contents.indexOf('The new kitchen')).toBeLessThan(contents.indexOf('And the garden'));
    } finally {
      photo.release();
      await worker.stop();
    }
    expect(errors).toEqual([]);
  });
});

describe('GET /media/:key', () => {
  it('is a 404 with a message for unknown or malformed keys', async () => {
    for (const key of ['nope', 'A'.repeat(43), '..%2F..%2Fetc%2Fpasswd']) {
      const res = await env.t.app.inject({ url: `/media/${key}` });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('This photo, voice memo or video does not exist or was deleted.');
    }
  });
});
