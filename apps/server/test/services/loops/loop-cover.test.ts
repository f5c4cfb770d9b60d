/**
 * A Loop's cover photo: PUT /api/loops/{id}/cover (one of its updates' photos, or an uploaded one
 * through the photo pipeline) and DELETE; shown on the public page (and so its print view) and in
 * the newsletter e-mail; gone when its photo is deleted. Owner, co-organizers and staff only.
 */
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loops, media, messages, users } from '../../../src/db/schema';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../../helpers/loops';
import { addUpdate, callAs, generateAs } from '../../helpers/newsletters';

let t: TestContext;
let staff: string;
let owner: Awaited<ReturnType<typeof signUp>>;
let member: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' });
  staff = (await signUp(t.app, { email: 'staff@example.com' })).cookie;
  owner = await signUp(t.app, { firstName: 'Olive' });
  member = await signUp(t.app, { firstName: 'Mia' });
  stranger = await signUp(t.app, { firstName: 'Sam' });
});
afterAll(() => t.close());

const db = () => t.app.ctx.db;
const put = (cookie: string | undefined, loopId: number, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: `/api/loops/${loopId}/cover`,
    ...(cookie ? { headers: { cookie } } : {}),
    payload: payload as object,
  });
const remove = (cookie: string | undefined, loopId: number) =>
  t.app.inject({ method: 'DELETE', url: `/api/loops/${loopId}/cover`, ...(cookie ? { headers: { cookie } } : {}) });

/** A real photo, with a GPS tag the pipeline must strip. */
async function photoBytes(width = 900, height = 600): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#c96' } })
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1' } })
    .jpeg()
    .toBuffer();
}

async function loopWithPhoto(name = 'The Smiths') {
  const loop = await createLoopAs(t.app, owner.cookie, { name });
  await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.user.phoneNumber, firstName: 'Mia' });
  const key = await t.app.ctx.storage.put(await photoBytes());
  const update = await addUpdate(db(), loop.id, member.user.id, 'At the beach', [key]);
  return { loop, key, update };
}

describe('the Loop’s cover photo', () => {
  it('the owner picks one of the updates’ photos: the Loop, its page (print view too) and the e-mail show it', async () => {
    const { loop, key } = await loopWithPhoto();
    const res = await put(owner.cookie, loop.id, { mediaUrl: `/media/${key}`, alt: 'Everyone on the pier' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ cover: { url: `/media/${key}`, width: 8, height: 8, alt: 'Everyone on the pier' } });
    const detail = await callAs(t.app, member.cookie, 'GET', `/api/loops/${loop.id}`);
    expect(detail.json().cover).toEqual({ url: `/media/${key}`, width: 8, height: 8, alt: 'Everyone on the pier' });

    const draft = await generateAs(t.app, owner.cookie, loop.id);
    expect((await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`)).statusCode).toBe(200);
    const page = await t.app.inject({ url: `/newsletters/${draft.urlId}` });
    expect(page.body).toContain(`<img class="cover" src="/media/${key}" width="8" height="8" alt="Everyone on the pier"`);
    // Above the Loop's name, inside the masthead the print stylesheet keeps.
    expect(page.body.indexOf('class="cover"')).toBeLessThan(page.body.indexOf('<h1>The Smiths</h1>'));
    // The editor's preview draws it too.
    const preview = await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/render`, {
      content: draft.content,
    });
    expect(preview.json().html).toContain('class="cover"');
  });

  it('goes into the newsletter e-mail, absolute, above the Loop’s name', async () => {
    const { loop, key } = await loopWithPhoto('Cover Mail');
    await put(owner.cookie, loop.id, { mediaUrl: `/media/${key}` });
    const me = await signUp(t.app, { firstName: 'Eve', email: 'eve.cover@example.com' });
    await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: me.user.phoneNumber, firstName: 'Eve' });
    await db()
      .update(users)
      .set({ newsletterDelivery: 'email', emailConfirmedAddress: 'eve.cover@example.com', emailConfirmedAt: new Date() })
      .where(eq(users.id, me.user.id));
    const draft = await generateAs(t.app, owner.cookie, loop.id);
    expect((await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`)).statusCode).toBe(200);
    const [mail] = await db().select().from(messages).where(eq(messages.toAddress, 'eve.cover@example.com'));
    const html = JSON.stringify(mail);
    expect(html).toContain(`${t.app.ctx.config.PUBLIC_URL}/media/${key}`);
    expect(html).toContain('Cover photo of Cover Mail');
  });

  it('an uploaded photo goes through the pipeline (no metadata, stored sizes) and is deleted when replaced or removed', async () => {
    const { loop, key } = await loopWithPhoto('Uploads');
    const upload = await put(owner.cookie, loop.id, { photo: (await photoBytes(1600, 800)).toString('base64') });
    expect(upload.statusCode, upload.body).toBe(200);
    const cover = upload.json<{ cover: { url: string; width: number; height: number; alt: string } }>().cover;
    expect(cover).toMatchObject({ width: 1280, height: 640, alt: 'Cover photo of Uploads' });
    const served = await t.app.inject({ url: cover.url });
    expect(served.headers['content-type']).toBe('image/webp');
    expect((await sharp(served.rawPayload).metadata()).exif).toBeUndefined();
    const [row] = await db()
      .select()
      .from(media)
      .where(eq(media.storageKey, cover.url.slice('/media/'.length)));
    expect(row?.updateId).toBeNull();

    // Replaced by an update's photo: the uploaded one is gone, row and files.
    expect((await put(owner.cookie, loop.id, { mediaUrl: `/media/${key}` })).statusCode).toBe(200);
    expect((await t.app.inject({ url: cover.url })).statusCode).toBe(404);
    expect(await db().select().from(media).where(eq(media.id, row!.id))).toEqual([]);
    for (const v of row!.variants) expect(await t.app.ctx.storage.get(v.key)).toBeNull();

    // Removing the cover leaves the update's photo where it was.
    expect((await remove(owner.cookie, loop.id)).json()).toEqual({ cover: null });
    expect((await callAs(t.app, owner.cookie, 'GET', `/api/loops/${loop.id}`)).json().cover).toBeNull();
    expect((await t.app.inject({ url: `/media/${key}` })).statusCode).toBe(200);
  });

  it('describes the cover there is with alt alone; 404 when there is none', async () => {
    const { loop, key } = await loopWithPhoto('Words');
    expect((await put(owner.cookie, loop.id, { alt: 'Nobody' })).statusCode).toBe(404);
    await put(owner.cookie, loop.id, { mediaUrl: `/media/${key}` });
    expect((await put(owner.cookie, loop.id, { alt: 'Grandma’s garden' })).json().cover.alt).toBe('Grandma’s garden');
  });

  it('is gone when its update is deleted, and the Loop’s deletion removes an uploaded one from storage', async () => {
    const { loop, key, update } = await loopWithPhoto('Deleting');
    await put(owner.cookie, loop.id, { mediaUrl: `/media/${key}` });
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/loops/${loop.id}/updates/${update.id}`,
      headers: { cookie: owner.cookie },
    });
    expect(deleted.statusCode).toBe(200);
    const [after] = await db().select({ coverMediaId: loops.coverMediaId }).from(loops).where(eq(loops.id, loop.id));
    expect(after?.coverMediaId).toBeNull();
    expect((await callAs(t.app, owner.cookie, 'GET', `/api/loops/${loop.id}`)).json().cover).toBeNull();

    const upload = await put(owner.cookie, loop.id, { photo: (await photoBytes()).toString('base64') });
    const uploadedKey = upload.json<{ cover: { url: string } }>().cover.url.slice('/media/'.length);
    const [row] = await db().select().from(media).where(eq(media.storageKey, uploadedKey));
    expect((await t.app.inject({ method: 'DELETE', url: `/api/loops/${loop.id}`, headers: { cookie: owner.cookie } })).statusCode).toBe(
      200,
    );
    expect(await db().select().from(media).where(eq(media.id, row!.id))).toEqual([]);
    for (const v of row!.variants) expect(await t.app.ctx.storage.get(v.key)).toBeNull();
  });

  it('refuses what is not a photo of this Loop, or not a photo at all, with a clear 4xx', async () => {
    const { loop } = await loopWithPhoto('Refusals');
    const other = await loopWithPhoto('Someone else');
    const elsewhere = await put(owner.cookie, loop.id, { mediaUrl: `/media/${other.key}` });
    expect(elsewhere.statusCode).toBe(404);
    expect(elsewhere.json().message).toBe('This photo is not one of this Loop’s updates. It may have been deleted.');
    const text = await put(owner.cookie, loop.id, { photo: Buffer.from('not a photo at all').toString('base64') });
    expect(text.statusCode).toBe(400);
    expect(text.json().message).toMatch(/^This photo can't be the cover: it isn't a photo/);
    const both = await put(owner.cookie, loop.id, { mediaUrl: `/media/${other.key}`, photo: 'AAAA' });
    expect(both.statusCode).toBe(400);
    expect((await put(owner.cookie, loop.id, {})).statusCode).toBe(400);
    expect((await put(owner.cookie, loop.id, { mediaUrl: 'https://evil.example/p.png' })).statusCode).toBe(400);
  });

  it('is set by the owner and staff only: a member 403, a stranger 404, signed out 401', async () => {
    const { loop, key } = await loopWithPhoto('Who may');
    expect((await put(member.cookie, loop.id, { mediaUrl: `/media/${key}` })).statusCode).toBe(403);
    expect((await remove(member.cookie, loop.id)).statusCode).toBe(403);
    expect((await put(stranger.cookie, loop.id, { mediaUrl: `/media/${key}` })).statusCode).toBe(404);
    expect((await remove(stranger.cookie, loop.id)).statusCode).toBe(404);
    expect((await put(undefined, loop.id, { mediaUrl: `/media/${key}` })).statusCode).toBe(401);
    expect((await put(staff, loop.id, { mediaUrl: `/media/${key}` })).statusCode).toBe(200);
    const [row] = await db().select({ coverMediaId: loops.coverMediaId }).from(loops).where(eq(loops.id, loop.id));
    expect(row?.coverMediaId).not.toBeNull();
  });
});
