import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, media, messages, newsletters, updates } from '../../src/db/schema';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { convertExistingPhotos } from '../../src/media/convert-existing';
import { templateWriter } from '../../src/publishing/template-writer';
import { publishNewsletter } from '../../src/services/newsletters/publish-newsletter';
import { renderNewsletterDraft } from '../../src/services/newsletters/render-draft';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createLoop, createPerson, textsTo, updatesOf } from '../helpers/messaging';
import { heicFixture, metadataOf, phoneJpeg, pngBomb, SVG } from '../helpers/photos';
import { startTestS3, type TestS3 } from '../helpers/s3-server';
import { mmsParams, postWebhook, sid } from '../helpers/twilio-fixtures';

/**
 * Photos from a real MMS webhook (Twilio's documented MediaUrlN / MediaContentTypeN parameters,
 * https://www.twilio.com/docs/messaging/guides/webhook-request) to the public page and back out
 * again on delete, with photos on local disk and in S3 (s3rver on 127.0.0.1): CI runs both.
 */
describe.each(['local disk', 'S3'] as const)('photos end to end, stored on %s', (where) => {
  let fake: FakeTwilio;
  let s3: TestS3 | undefined;
  let t: TestContext;
  beforeAll(async () => {
    fake = await startFakeTwilio();
    s3 = where === 'S3' ? await startTestS3() : undefined;
    t = await createTestApp({ ...twilioEnv(fake), ...(s3?.env ?? {}) });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await s3?.stop();
  });
  const db = () => t.testDb.database.db;
  const mediaPath = () => `/2010-04-01/Accounts/${fake.accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`;
  /** Every stored object: in the bucket, or (local disk) asked of the storage by key. */
  const exists = async (key: string) => (await t.app.ctx.storage.get(key)) !== null;

  it('keeps the good photos of a text, refuses the bad ones with reasons, and the text still becomes an update', async () => {
    const owner = await signUp(t.app);
    const texter = await createPerson(db(), { firstName: 'Lin' });
    const loop = await createLoop(db(), { name: 'Lake House', memberIds: [owner.user.id, texter.id], creatorId: owner.user.id });
    const jpeg = await phoneJpeg({ width: 2016, height: 1512 });
    const attachments: [Buffer, string][] = [
      [jpeg, 'image/jpeg'],
      [jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'image/jpeg'],
      [SVG, 'image/svg+xml'],
      [pngBomb(), 'image/png'],
      [Buffer.alloc(0), 'image/jpeg'],
      [heicFixture(), 'image/heic'],
    ];
    const params = mmsParams({
      accountSid: fake.accountSid,
      from: texter.phoneNumber,
      body: 'Sunset from the dock, and the boat is back in the water',
      media: attachments.map(([bytes, contentType]) => ({ url: fake.addMedia(mediaPath(), bytes, contentType), contentType })),
    });
    await postWebhook(t.app, '/api/webhooks/twilio/messages', params, { authToken: fake.authToken });
    await sweepUntilIdle(t.app.ctx);

    const [update] = await updatesOf(db(), loop.id);
    expect(update?.content).toBe('Sunset from the dock, and the boat is back in the water');
    expect(update?.media.map((m) => [m.width, m.height, m.contentType])).toEqual([
      [1280, 960, 'image/webp'],
      [120, 80, 'image/webp'],
    ]);
    expect((await textsTo(db(), texter.phoneNumber)).at(-1)?.body).toBe(
      'Thanks Lin! Your update and 2 photos went to "Lake House". 4 photos couldn\'t be saved: it is damaged or cut off; ' +
        "it isn't a photo (JPEG, PNG, HEIC, GIF, WebP, TIFF or BMP); it has too many pixels (more than 50 megapixels); it was empty (0 bytes).",
    );

    // Every size is served, as WebP, with nothing but the picture; the original never was stored.
    const [photo] = update?.media ?? [];
    expect(photo?.variants.map((v) => v.width)).toEqual([320, 640, 1280]);
    for (const url of [`/media/${photo?.storageKey}`, ...(photo?.variants ?? []).map((v) => `/media/${photo?.storageKey}/${v.width}`)]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect((await metadataOf(res.rawPayload)).exif).toBeUndefined();
      expect(res.rawPayload.includes('iPhone')).toBe(false);
    }
    expect((await t.app.inject({ url: `/media/${photo?.storageKey}/800` })).statusCode).toBe(404);
    expect(await exists(photo?.storageKey ?? '')).toBe(false);
    if (s3) expect((await s3.listKeys()).sort()).toEqual(update!.media.flatMap((m) => m.variants.map((v) => `media/${v.key}`)).sort());
  });

  it('delete means gone: a deleted update leaves the sent newsletter, the thread, /media and storage', async () => {
    const owner = await signUp(t.app);
    const texter = await createPerson(db(), { firstName: 'Noor' });
    const loop = await createLoop(db(), { name: 'Cousins', memberIds: [owner.user.id, texter.id], creatorId: owner.user.id });
    const text = async (body: string) => {
      const url = fake.addMedia(mediaPath(), await phoneJpeg({ width: 900, height: 600 }), 'image/jpeg');
      await postWebhook(
        t.app,
        '/api/webhooks/twilio/messages',
        mmsParams({ accountSid: fake.accountSid, from: texter.phoneNumber, body, media: [{ url, contentType: 'image/jpeg' }] }),
        {
          authToken: fake.authToken,
        },
      );
      await sweepUntilIdle(t.app.ctx);
    };
    await text('Our secret engagement news');
    await text('Grandma turned 90 today');
    const [secret, kept] = await updatesOf(db(), loop.id);
    const published = await publishNewsletter(db(), {
      loopId: loop.id,
      now: new Date(Date.now() + 60_000),
      writer: templateWriter,
      publicUrl: 'http://localhost',
      send: true,
    });
    if (published.status !== 'sent') throw new Error(`not sent: ${published.status}`);
    const pageUrl = `/newsletters/${published.newsletter.urlId}`;
    const secretPhoto = secret!.media[0]!;
    const before = (await t.app.inject({ url: pageUrl })).body;
    expect(before).toContain('Our secret engagement news');
    expect(before).toContain(
      `srcset="/media/${secretPhoto.storageKey}/320 320w, /media/${secretPhoto.storageKey}/640 640w, /media/${secretPhoto.storageKey}/900 900w"`,
    );
    expect(before).toContain('width="900" height="600"');
    // The editor is told one of the photo's smaller stored sizes to show, never the largest.
    const [loopRow] = await db().select().from(loops).where(eq(loops.id, loop.id));
    const inEditor = await renderNewsletterDraft(db(), {
      loop: loopRow!,
      newsletter: published.newsletter,
      content: published.newsletter.content,
      publicUrl: 'http://localhost',
    });
    expect(inEditor.media[`/media/${secretPhoto.storageKey}`]).toEqual({
      kind: 'photo',
      poster: null,
      preview: `/media/${secretPhoto.storageKey}/640`,
    });

    const res = await t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/updates/${secret!.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(res.statusCode).toBe(200);

    const after = (await t.app.inject({ url: pageUrl })).body;
    expect(after).not.toContain('secret engagement');
    expect(after).not.toContain(secretPhoto.storageKey);
    expect(after).toContain('Grandma turned 90 today');
    expect(after).toContain(kept!.media[0]!.storageKey);
    const [stored] = await db().select().from(newsletters).where(eq(newsletters.id, published.newsletter.id));
    expect(stored?.content).not.toContain('secret');
    for (const url of [
      `/media/${secretPhoto.storageKey}`,
      ...secretPhoto.variants.map((v) => `/media/${secretPhoto.storageKey}/${v.width}`),
    ]) {
      expect((await t.app.inject({ url })).statusCode).toBe(404);
    }
    for (const variant of secretPhoto.variants) expect(await exists(variant.key)).toBe(false);
    expect(await db().select().from(media).where(eq(media.id, secretPhoto.id))).toEqual([]);
    // The phone's own thread (simulator view) no longer shows the photo either.
    const [inbound] = await db().select().from(messages).where(eq(messages.id, secret!.messageId!));
    expect(inbound?.mediaUrls).toEqual([`/media/${secretPhoto.storageKey}`]);

    // Deleting the Loop deletes the remaining photos from storage.
    const gone = await t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } });
    expect(gone.statusCode).toBe(200);
    for (const variant of kept!.media[0]!.variants) expect(await exists(variant.key)).toBe(false);
  });

  it('converts photos stored before the pipeline once, keeping their addresses; a second run has nothing to do', async () => {
    const storage = t.app.ctx.storage;
    const owner = await signUp(t.app);
    const loop = await createLoop(db(), { name: 'Old Photos', memberIds: [owner.user.id], creatorId: owner.user.id });
    const [update] = await db().insert(updates).values({ loopId: loop.id, userId: owner.user.id, content: 'From last year' }).returning();
    const legacy = async (bytes: Buffer, contentType: string, position: number) => {
      const key = await storage.put(bytes);
      const [row] = await db()
        .insert(media)
        .values({ updateId: update!.id, storageKey: key, contentType, bytes: bytes.length, position })
        .returning();
      return row!;
    };
    const gps = await legacy(await phoneJpeg({ width: 1600, height: 1200, orientation: 6 }), 'image/jpeg', 0);
    const heic = await legacy(heicFixture(), 'image/heic', 1);
    const broken = await legacy(Buffer.from('not a photo at all'), 'image/jpeg', 2);
    // Before conversion the original is never served.
    expect((await t.app.inject({ url: `/media/${gps.storageKey}` })).statusCode).toBe(404);

    const logs: string[] = [];
    const log = { info: (_o: unknown, m?: string) => logs.push(m ?? ''), warn: (_o: unknown, m?: string) => logs.push(m ?? '') };
    const report = await convertExistingPhotos(db(), storage, log);
    expect(report).toEqual({ converted: 2, removed: 1, skipped: 0 });
    expect(logs).toContain('Converted 3 of 3 stored photos');

    const rows = await db().select().from(media).where(eq(media.updateId, update!.id)).orderBy(media.position);
    expect(rows.map((r) => [r.storageKey, r.width, r.height])).toEqual([
      [gps.storageKey, 1200, 1600],
      [heic.storageKey, 120, 80],
    ]);
    expect(rows.some((r) => r.id === broken.id)).toBe(false);
    const served = await t.app.inject({ url: `/media/${gps.storageKey}` });
    expect(served.statusCode).toBe(200);
    expect((await metadataOf(served.rawPayload)).exif).toBeUndefined();
    // The originals are gone from storage.
    for (const row of [gps, heic, broken]) expect(await exists(row.storageKey)).toBe(false);

    expect(await convertExistingPhotos(db(), storage, log)).toEqual({ converted: 0, removed: 0, skipped: 0 });
  });
});
