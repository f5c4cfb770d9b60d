/**
 * "Download my data" (GDPR Articles 15 and 20; decision 0045): the zip is built in the
 * background, opened here and read back: account, memberships, updates with the bytes of their
 * photos, voice memos and videos, and the texts Loop sent. Only its owner's session fetches it;
 * after 24 hours it is gone, file and all; one export builds at a time per person. Run with
 * media on local disk and in S3 (s3rver on 127.0.0.1).
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';
import { dataExports, emailSuppressions, media, messages, newsletters, reactions, users } from '../../../src/db/schema';
import { optOutPhone } from '../../../src/messaging/opt-outs';
import { buildDataExports } from '../../../src/services/exports/build-data-exports';
import { deleteExpiredExports } from '../../../src/services/exports/delete-expired-exports';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { createLoopAs, insertUpdate } from '../../helpers/loops';
import { startTestS3, type TestS3 } from '../../helpers/s3-server';

async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromBuffer(bytes, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
  );
  const files = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.on('end', () => resolve());
    zip.on('error', reject);
    zip.readEntry();
  });
  return files;
}

describe.each(['local disk', 'S3'] as const)('data export, media on %s', (where) => {
  let t: TestContext;
  let s3: TestS3 | undefined;
  beforeAll(async () => {
    s3 = where === 'S3' ? await startTestS3() : undefined;
    t = await createTestApp(s3?.env ?? {});
  });
  afterAll(async () => {
    await t.close();
    await s3?.stop();
  });
  const db = () => t.app.ctx.db;
  const call = (cookie: string | undefined, method: 'GET' | 'POST', url: string) =>
    t.app.inject({ method, url, ...(cookie ? { headers: { cookie } } : {}) });
  /** Builds what waits (the route started it already; this makes sure), then answers the state once ready. */
  async function ready(cookie: string) {
    for (let i = 0; i < 200; i++) {
      await buildDataExports(t.app.ctx);
      const state = (await call(cookie, 'GET', '/api/user/export')).json();
      if (state.status !== 'building') return state;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the export was never built');
  }

  it('zips the account, memberships, updates with their media bytes and the texts; only its owner downloads it', async () => {
    const ann = await signUp(t.app, { firstName: 'Ann', lastName: 'Archer' });
    const ben = await signUp(t.app, { firstName: 'Ben' });
    const loop = await createLoopAs(t.app, ann.cookie, { name: 'Book Club' });
    const photo = Buffer.from('RIFF....WEBPVP8 fake photo bytes');
    const memo = Buffer.from('voice memo bytes \u0000\u0001\u0002');
    const video = Buffer.alloc(300_000, 7);
    const photoKey = await t.app.ctx.storage.put(photo);
    const memoKey = await t.app.ctx.storage.put(memo);
    const videoKey = await t.app.ctx.storage.put(video);
    const update = await insertUpdate(db(), loop.id, ann.user.id, 'Our first meeting', [photoKey]);
    await db()
      .insert(media)
      .values([
        {
          updateId: update.id,
          storageKey: 'memo-row',
          contentType: 'audio/mp4',
          bytes: memo.length,
          position: 1,
          transcript: 'hello book club',
          variants: [{ width: 0, height: 0, key: memoKey, bytes: memo.length, durationMs: 3000 }],
        },
        {
          updateId: update.id,
          storageKey: 'video-row',
          contentType: 'video/mp4',
          bytes: video.length,
          position: 2,
          variants: [{ width: 8, height: 8, key: videoKey, bytes: video.length, durationMs: 2000 }],
        },
      ]);
    await insertUpdate(db(), loop.id, ben.user.id, 'Ben is not in Ann export');

    const started = await call(ann.cookie, 'POST', '/api/user/export');
    expect(started.statusCode).toBe(202);
    expect(started.json().status).toMatch(/building|ready/);
    const state = await ready(ann.cookie);
    expect(state).toMatchObject({ status: 'ready', downloadUrl: expect.stringMatching(/^\/api\/user\/export\/\d+\/[A-Za-z0-9_-]{43}$/) });
    expect(new Date(state.expiresAt).getTime() - new Date(state.readyAt).getTime()).toBe(24 * 3600_000);

    const res = await call(ann.cookie, 'GET', state.downloadUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="loop-data-\d{4}-\d{2}-\d{2}\.zip"$/);
    const files = await unzip(res.rawPayload);
    const account = JSON.parse(files.get('account.json')!.toString());
    expect(account).toMatchObject({ firstName: 'Ann', lastName: 'Archer', email: ann.account.email, phoneNumber: ann.user.phoneNumber });
    expect(JSON.stringify(account)).not.toContain('argon2');
    expect(JSON.parse(files.get('memberships.json')!.toString())).toEqual([
      expect.objectContaining({ loop: 'Book Club', owner: true, status: 'active' }),
    ]);
    const updates = JSON.parse(files.get('updates.json')!.toString());
    expect(updates).toHaveLength(1);
    expect(updates[0]).toMatchObject({ loop: 'Book Club', content: 'Our first meeting' });
    const [p, m, v] = updates[0].media;
    expect(m).toMatchObject({ contentType: 'audio/mp4', transcript: 'hello book club', durationMs: 3000 });
    expect(files.get(p.file)).toEqual(photo);
    expect(files.get(m.file)).toEqual(memo);
    expect(files.get(v.file)).toEqual(video);
    expect([...files.keys()].join()).not.toContain('Ben');
    const texts = JSON.parse(files.get('texts.json')!.toString());
    expect(texts).toEqual(
      expect.arrayContaining([expect.objectContaining({ direction: 'outbound', kind: 'code', body: expect.stringMatching(/\d{6}/) })]),
    );

    // Anyone else: another account with the link, signed out, a changed token: nothing.
    expect((await call(ben.cookie, 'GET', state.downloadUrl)).statusCode).toBe(404);
    expect((await call(undefined, 'GET', state.downloadUrl)).statusCode).toBe(401);
    const tampered = state.downloadUrl.replace(/.$/, (c: string) => (c === 'A' ? 'B' : 'A'));
    expect((await call(ann.cookie, 'GET', tampered)).statusCode).toBe(404);
    expect((await call(ben.cookie, 'GET', '/api/user/export')).json()).toMatchObject({ status: 'none', downloadUrl: null });
    // The zip's own storage key is not a media address.
    const [row] = await db().select().from(dataExports).where(eq(dataExports.userId, ann.user.id));
    expect((await t.app.inject({ url: `/media/${row!.storageKey}` })).statusCode).toBe(404);
  });

  it('holds everything Loop keeps about them: what others typed, the delivery choice, opt-outs (GDPR Art. 15)', async () => {
    const alice = await signUp(t.app, { firstName: 'Alice', lastName: 'Abbot' });
    const loop = await createLoopAs(t.app, alice.cookie, { name: 'Family' });
    const phone = uniquePhone();
    const added = await t.app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: alice.cookie },
      payload: {
        firstName: 'Grandma',
        lastName: 'Carol',
        email: 'grandma.carol@example.com',
        phoneNumber: phone,
        messagingPreference: 'sms',
        context: 'Alice’s mother, lives in Lisbon',
      },
    });
    expect(added.statusCode, added.body).toBe(201);
    await t.app.inject({
      method: 'PUT',
      url: `/api/loops/${loop.id}/members/${added.json<{ id: number }>().id}`,
      headers: { cookie: alice.cookie },
      payload: { timeZone: 'Europe/Lisbon' },
    });
    const carol = await signUp(t.app, { phoneNumber: phone, firstName: 'Carol', lastName: 'Jones' });
    await db().update(users).set({ newsletterDelivery: 'both' }).where(eq(users.id, carol.user.id));
    await optOutPhone(db(), phone, 'STOP', new Date('2026-11-20T10:00:00Z'));
    await db().insert(emailSuppressions).values({ address: carol.account.email.toLowerCase(), reason: 'unsubscribed' });

    // What Carol sent back to a newsletter (decision 0056) is hers too.
    const [issue] = await db()
      .insert(newsletters)
      .values({
        loopId: loop.id,
        title: 'Family, November',
        content: 'News',
        urlId: `u${Date.now()}abcdefabcdefabcdef`,
        status: 'sent',
        periodEnd: new Date('2026-11-21T10:00:00Z'),
        sentAt: new Date('2026-11-21T10:00:00Z'),
      })
      .returning();
    await db()
      .insert(reactions)
      .values({ newsletterId: issue!.id, userId: carol.user.id, body: 'Love it!!', createdAt: new Date('2026-11-21T11:00:00Z') });
    expect((await call(carol.cookie, 'POST', '/api/user/export')).statusCode).toBe(202);
    const state = await ready(carol.cookie);
    const files = await unzip((await call(carol.cookie, 'GET', state.downloadUrl)).rawPayload);
    const read = (name: string) => JSON.parse(files.get(name)!.toString());
    expect(read('account.json')).toMatchObject({ newsletterDelivery: 'both', messagingPreference: 'sms' });
    expect(read('memberships.json')).toEqual([
      expect.objectContaining({
        loop: 'Family',
        status: 'pending',
        addedBy: 'Alice Abbot',
        ownerNote: 'Alice’s mother, lives in Lisbon',
        typedWhenAdded: { firstName: 'Grandma', lastName: 'Carol', email: 'grandma.carol@example.com', messagingPreference: 'sms' },
        timeZoneChosenByOwner: 'Europe/Lisbon',
      }),
    ]);
    expect(read('reactions.json')).toEqual([
      {
        loop: 'Family',
        newsletter: 'Family, November',
        newsletterSentAt: '2026-11-21T10:00:00.000Z',
        body: 'Love it!!',
        createdAt: '2026-11-21T11:00:00.000Z',
      },
    ]);
    expect(read('opt-outs.json')).toMatchObject({
      phone: { optedOut: { reason: 'STOP', at: '2026-11-20T10:00:00.000Z' }, cannotReceiveTexts: null },
      email: { suppressed: { reason: 'unsubscribed' } },
    });
  });

  it('one export builds at a time per person (429); after 24 hours it is gone, file and all', async () => {
    const cy = await signUp(t.app, { firstName: 'Cy' });
    // An export still being built (as if another process held it): a second request waits.
    await db()
      .insert(dataExports)
      .values({ userId: cy.user.id, leaseUntil: new Date(Date.now() + 3600_000) });
    const second = await call(cy.cookie, 'POST', '/api/user/export');
    expect(second.statusCode).toBe(429);
    expect(second.json().message).toMatch(/being gathered already/);
    await db().delete(dataExports).where(eq(dataExports.userId, cy.user.id));

    expect((await call(cy.cookie, 'POST', '/api/user/export')).statusCode).toBe(202);
    const state = await ready(cy.cookie);
    const [row] = await db().select().from(dataExports).where(eq(dataExports.userId, cy.user.id));
    const key = row!.storageKey!;
    expect(await t.app.ctx.storage.get(key)).not.toBeNull();
    const later = new Date(new Date(state.expiresAt).getTime() + 1000);
    expect(await deleteExpiredExports(t.app.ctx, later)).toBeGreaterThanOrEqual(1);
    expect(await t.app.ctx.storage.get(key)).toBeNull();
    expect((await call(cy.cookie, 'GET', '/api/user/export')).json().status).toBe('none');
    expect((await call(cy.cookie, 'GET', state.downloadUrl)).statusCode).toBe(404);
  });

  it('deleting the account deletes its export file too', async () => {
    const dee = await signUp(t.app, { firstName: 'Dee' });
    await call(dee.cookie, 'POST', '/api/user/export');
    await ready(dee.cookie);
    const [row] = await db().select().from(dataExports).where(eq(dataExports.userId, dee.user.id));
    const res = await t.app.inject({
      method: 'DELETE',
      url: '/api/user',
      headers: { cookie: dee.cookie },
      payload: { password: dee.account.password },
    });
    expect(res.statusCode).toBe(200);
    expect(await t.app.ctx.storage.get(row!.storageKey!)).toBeNull();
    expect(await db().select().from(messages).where(eq(messages.toAddress, dee.user.phoneNumber))).toEqual([]);
  });
});
