import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '@loop/shared/constants';
import { and, eq } from 'drizzle-orm';
import type { SneakPeekPreview } from '@loop/shared/newsletters';
import { messages, phoneOptOuts } from '../../../src/db/schema';
import { smsSegments } from '../../../src/messaging/segments';
import { templateWriter } from '../../../src/publishing/template-writer';
import { publishNewsletter } from '../../../src/services/newsletters/publish-newsletter';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../../helpers/loops';
import { addUpdate, callAs, generateAs, textsOf } from '../../helpers/newsletters';

let t: TestContext;
let staff: string;
let owner: Awaited<ReturnType<typeof signUp>>;
let member: Awaited<ReturnType<typeof signUp>>;
let loopId: number;
let otherLoopId: number;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com', PUBLIC_URL: 'https://loop.example' });
  staff = (await signUp(t.app, { email: 'staff@example.com' })).cookie;
  owner = await signUp(t.app, { firstName: 'Olive' });
  member = await signUp(t.app, { messagingPreference: 'whatsapp' });
  loopId = (await createLoopAs(t.app, owner.cookie, { name: 'The Smiths' })).id;
  await addActiveMemberAs(t.app, owner.cookie, loopId, { phoneNumber: member.account.phoneNumber, firstName: 'Mia' });
  otherLoopId = (await createLoopAs(t.app, owner.cookie, { name: 'Book club' })).id;
});
afterAll(() => t.close());

const db = () => t.testDb.database.db;
const textsOfLoop = (loop: number) =>
  db()
    .select()
    .from(messages)
    .where(and(eq(messages.loopId, loop), eq(messages.kind, 'sneak_peek')));

describe('who may call the newsletter API', () => {
  const routes = (loop: number, newsletterId: number) =>
    [
      ['POST', `/api/loops/${loop}/newsletters/generate`, undefined],
      ['GET', `/api/loops/${loop}/newsletters/${newsletterId}/preview`, undefined],
      ['POST', `/api/loops/${loop}/newsletters/${newsletterId}/render`, { content: 'Hi' }],
      ['PUT', `/api/loops/${loop}/newsletters/${newsletterId}`, { content: 'Hi' }],
      ['POST', `/api/loops/${loop}/newsletters/${newsletterId}/send`, undefined],
      ['POST', `/api/loops/${loop}/sneak-peek`, undefined],
    ] as const;

  it('answers 401 signed out and 403 to members (the sneak peek: to the owner too), touching nothing', async () => {
    await addUpdate(db(), loopId, owner.user.id, 'Role test update');
    const draft = await generateAs(t.app, staff, loopId);
    for (const [method, url, payload] of routes(loopId, draft.id)) {
      expect((await callAs(t.app, undefined, method, url, payload)).statusCode, url).toBe(401);
      const staffOnly = url.endsWith('/sneak-peek');
      for (const cookie of staffOnly ? [owner.cookie, member.cookie] : [member.cookie]) {
        const res = await callAs(t.app, cookie, method, url, payload);
        expect(res.statusCode, url).toBe(403);
        expect(res.json().message).toMatch(staffOnly ? /staff/ : /creator/);
      }
    }
    expect(await textsOf(db(), draft.id)).toHaveLength(0);
  });

  it('answers 404 for an unknown Loop, an unknown newsletter and a newsletter of another Loop', async () => {
    await addUpdate(db(), loopId, owner.user.id, '404 test update');
    const draft = await generateAs(t.app, staff, loopId);
    for (const [method, url, payload] of routes(999_999, draft.id)) {
      expect((await callAs(t.app, staff, method, url, payload)).statusCode, url).toBe(404);
    }
    for (const [method, url, payload] of routes(loopId, 999_999).slice(1, 5)) {
      expect((await callAs(t.app, staff, method, url, payload)).statusCode, url).toBe(404);
    }
    for (const [method, url, payload] of routes(otherLoopId, draft.id).slice(1, 5)) {
      const res = await callAs(t.app, staff, method, url, payload);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toMatch(/Newsletter not found/);
    }
  });

  it('answers 400 with a readable message for ids that are not numbers', async () => {
    const res = await callAs(t.app, staff, 'GET', `/api/loops/abc/newsletters/1/preview`);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/number/);
  });
});

describe('generate, preview, edit and send', () => {
  it('refuses a newsletter of nothing with a clear 409', async () => {
    const empty = (await createLoopAs(t.app, owner.cookie, { name: 'Quiet' })).id;
    const res = await callAs(t.app, staff, 'POST', `/api/loops/${empty}/newsletters/generate`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/no new updates since the last newsletter/);
  });

  it('drafts, saves and sends a newsletter, texting each opted-in member once on their channel', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Flow', vibe: ['funny'] })).id;
    const mia = await addActiveMemberAs(t.app, owner.cookie, loop, { phoneNumber: member.account.phoneNumber });
    const quiet = await addActiveMemberAs(t.app, owner.cookie, loop, { phoneNumber: uniquePhone(), firstName: 'Quinn' });
    await db()
      .insert(phoneOptOuts)
      .values({ phoneNumber: (await memberPhone(loop, quiet.id)) ?? '', reason: 'STOP' });
    await addUpdate(db(), loop, member.user.id, 'We got a puppy!');

    const generated = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/newsletters/generate`);
    expect(generated.statusCode).toBe(201);
    const { newsletter } = generated.json();
    expect(newsletter).toMatchObject({
      loopId: loop,
      kind: 'newsletter',
      status: 'draft',
      writer: 'template',
      fellBack: false,
      sentAt: null,
    });
    expect(newsletter.urlId).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newsletter.content).toContain('We got a puppy!');
    expect(newsletter.content).toMatch(/^Breaking news from Flow/);
    expect(newsletter.title).toMatch(/^Flow: /);

    const preview = await callAs(t.app, staff, 'GET', `/api/loops/${loop}/newsletters/${newsletter.id}/preview`);
    expect(preview.json()).toMatchObject({ id: newsletter.id, content: newsletter.content, urlId: newsletter.urlId, status: 'draft' });

    const saved = await callAs(t.app, staff, 'PUT', `/api/loops/${loop}/newsletters/${newsletter.id}`, { content: '# Edited\n\nHi all' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().newsletter.content).toBe('# Edited\n\nHi all');
    expect((await callAs(t.app, staff, 'GET', `/api/loops/${loop}/newsletters/${newsletter.id}/preview`)).json().content).toBe(
      '# Edited\n\nHi all',
    );

    const sent = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/newsletters/${newsletter.id}/send`);
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({ newsletter: { status: 'sent' }, textsQueued: 2 });
    expect(sent.json().newsletter.sentAt).not.toBeNull();

    const texts = await textsOf(db(), newsletter.id);
    const link = `https://loop.example/newsletters/${newsletter.urlId}`;
    expect(texts.map((m) => [m.kind, m.channel, m.idempotencyKey]).sort()).toEqual(
      [
        ['newsletter', 'sms', `newsletter:${newsletter.id}:${await ownerMemberId(loop)}`],
        ['newsletter', 'whatsapp', `newsletter:${newsletter.id}:${mia.id}`],
      ].sort(),
    );
    for (const text of texts) expect(text.body).toContain(link);

    const again = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/newsletters/${newsletter.id}/send`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already sent/);
    expect(await textsOf(db(), newsletter.id)).toHaveLength(2);

    const edit = await callAs(t.app, staff, 'PUT', `/api/loops/${loop}/newsletters/${newsletter.id}`, { content: 'Too late' });
    expect(edit.statusCode).toBe(409);
  });

  it('rejects an empty, missing or too long draft with a 400 that says why', async () => {
    await addUpdate(db(), loopId, owner.user.id, 'Validation update');
    const draft = await generateAs(t.app, staff, loopId);
    const url = `/api/loops/${loopId}/newsletters/${draft.id}`;
    const cases: Array<[unknown, RegExp]> = [
      [{ content: '   ' }, /cannot be empty/],
      [{}, /Content is required/],
      [{ content: 'x'.repeat(LIMITS.newsletter + 1) }, /too long/],
    ];
    for (const [payload, message] of cases) {
      const res = await callAs(t.app, staff, 'PUT', url, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(message);
    }
    expect((await callAs(t.app, staff, 'GET', `${url}/preview`)).json().content).toBe(draft.content);
  });

  it('sends once when two sends race', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Race' })).id;
    await addActiveMemberAs(t.app, owner.cookie, loop, { phoneNumber: member.account.phoneNumber });
    await addUpdate(db(), loop, owner.user.id, 'Ready, set...');
    const draft = await generateAs(t.app, staff, loop);
    const url = `/api/loops/${loop}/newsletters/${draft.id}/send`;
    const results = await Promise.all([1, 2, 3].map(() => callAs(t.app, staff, 'POST', url)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    expect(await textsOf(db(), draft.id)).toHaveLength(2);
  });

  it('starts the next newsletter where the last sent one ended', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Periods' })).id;
    await addUpdate(db(), loop, owner.user.id, 'First period news');
    const first = await generateAs(t.app, staff, loop);
    await callAs(t.app, staff, 'POST', `/api/loops/${loop}/newsletters/${first.id}/send`);

    const refused = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/newsletters/generate`);
    expect(refused.statusCode).toBe(409);

    await addUpdate(db(), loop, owner.user.id, 'Second period news');
    const second = (await callAs(t.app, staff, 'POST', `/api/loops/${loop}/newsletters/generate`)).json().newsletter;
    const firstFull = (await callAs(t.app, staff, 'GET', `/api/loops/${loop}/newsletters/${first.id}/preview`)).json();
    expect(second.periodStart).toBe(firstFull.periodEnd);
    expect(second.content).toContain('Second period news');
    expect(second.content).not.toContain('First period news');
  });
});

describe("the editor's live preview", () => {
  it('draws unsaved Markdown as the public page does, safely, and changes nothing stored', async () => {
    await addUpdate(db(), loopId, owner.user.id, 'Preview test update');
    const draft = await generateAs(t.app, staff, loopId);
    const content =
      '## Moved up\n\nHi [there](https://example.com) [bad](javascript:alert(1)) <script>x</script>\n\n![Photo from Ada](/media/not_ours)';
    const res = await callAs(t.app, staff, 'POST', `/api/loops/${loopId}/newsletters/${draft.id}/render`, { content });
    expect(res.statusCode).toBe(200);
    const { html, media } = res.json();
    expect(html).toContain('<h2>Moved up</h2>');
    expect(html).toContain('Draft preview.');
    expect(html).toContain('<h1>The Smiths</h1>');
    // The preview frame runs no script: the page comes without its lightbox.
    expect(html).not.toContain('<script');
    expect(html).toContain('href="https://example.com"');
    expect(html).not.toContain('href="javascript');
    expect(html).not.toContain('<script>x');
    // A picture that is not this Loop's is left out, as on the page.
    expect(html).not.toContain('/media/not_ours');
    expect(media).toEqual({});
    const stored = await callAs(t.app, staff, 'GET', `/api/loops/${loopId}/newsletters/${draft.id}/preview`);
    expect(stored.json().content).toBe(draft.content);
  });

  it('refuses empty or oversized Markdown with a clear 400', async () => {
    await addUpdate(db(), loopId, owner.user.id, 'Preview 400 update');
    const draft = await generateAs(t.app, staff, loopId);
    const url = `/api/loops/${loopId}/newsletters/${draft.id}/render`;
    expect((await callAs(t.app, staff, 'POST', url, { content: ' ' })).json().message).toMatch(/cannot be empty/);
    const long = await callAs(t.app, staff, 'POST', url, { content: 'x'.repeat(LIMITS.newsletter + 1) });
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toMatch(/too long/);
  });
});

describe('sneak peeks', () => {
  it('writes a teaser, texts every member at once, keeps it in history, and does not use updates up', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Peek' })).id;
    await addActiveMemberAs(t.app, owner.cookie, loop, { phoneNumber: member.account.phoneNumber });
    await addUpdate(db(), loop, member.user.id, 'A secret project is under way');

    const res = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/sneak-peek`);
    expect(res.statusCode).toBe(201);
    const { newsletter, textsQueued } = res.json();
    expect(newsletter).toMatchObject({ kind: 'sneak_peek', status: 'sent', loopId: loop });
    expect(textsQueued).toBe(2);
    const texts = await textsOf(db(), newsletter.id);
    expect(texts.map((m) => m.kind)).toEqual(['sneak_peek', 'sneak_peek']);
    expect(texts[0]?.body).toMatch(/^Sneak peek from "Peek": 1 update from .+ so far! Take a look: https:\/\/loop\.example\/newsletters\//);

    const again = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/sneak-peek`);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toMatch(/already got a sneak peek/);

    const full = await generateAs(t.app, staff, loop);
    expect(full.content).toContain('A secret project is under way');

    await addUpdate(db(), loop, member.user.id, 'More news');
    expect((await callAs(t.app, staff, 'POST', `/api/loops/${loop}/sneak-peek`)).statusCode).toBe(201);
  });

  it('previews the exact text, its recipients and cost, texts nobody, and matches what is then sent (decision 0042)', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Preview' })).id;
    await addActiveMemberAs(t.app, owner.cookie, loop, { phoneNumber: member.account.phoneNumber, firstName: 'Mia' });
    const stopped = uniquePhone();
    await addActiveMemberAs(t.app, owner.cookie, loop, { phoneNumber: stopped });
    await db().insert(phoneOptOuts).values({ phoneNumber: stopped, reason: 'STOP' });
    await addUpdate(db(), loop, member.user.id, 'A secret project is under way');

    const res = await callAs(t.app, staff, 'GET', `/api/loops/${loop}/sneak-peek/preview`);
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json<SneakPeekPreview>();
    expect(preview).toMatchObject({ recipients: 2, notReached: 1, recipientNames: ['Olive', 'Ada'] });
    expect(preview.text).toContain(preview.linkPlaceholder);
    expect(preview.texts).toBe(preview.recipients * preview.segments);
    expect(await textsOfLoop(loop)).toEqual([]);

    const sent = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/sneak-peek`);
    const texts = await textsOf(db(), sent.json().newsletter.id);
    expect(texts).toHaveLength(preview.recipients);
    const url = `https://loop.example/newsletters/${sent.json().newsletter.urlId}`;
    expect(texts[0]?.body).toBe(preview.text.replace(preview.linkPlaceholder, url));
    expect(smsSegments(texts[0]?.body ?? '')).toBe(preview.segments);

    // Once sent, the preview says so as sending would.
    const after = await callAs(t.app, staff, 'GET', `/api/loops/${loop}/sneak-peek/preview`);
    expect(after.statusCode).toBe(409);
    expect(after.json().message).toMatch(/already got a sneak peek/);
  });

  it('refuses a sneak peek of nothing', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Nothing yet' })).id;
    const res = await callAs(t.app, staff, 'POST', `/api/loops/${loop}/sneak-peek`);
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/nothing to tease/);
    const preview = await callAs(t.app, staff, 'GET', `/api/loops/${loop}/sneak-peek/preview`);
    expect(preview.statusCode).toBe(409);
    expect(preview.json().message).toMatch(/nothing to tease/);
  });
});

describe('publishNewsletter (for the demo, tests and benches)', () => {
  it('sends nothing for an empty period, and drafts or sends otherwise', async () => {
    const loop = (await createLoopAs(t.app, owner.cookie, { name: 'Scheduled' })).id;
    const base = { loopId: loop, writer: templateWriter, publicUrl: 'https://loop.example' };
    expect(await publishNewsletter(db(), { ...base, now: new Date(), send: true })).toEqual({ status: 'empty' });

    await addUpdate(db(), loop, owner.user.id, 'Scheduled news');
    const drafted = await publishNewsletter(db(), { ...base, now: new Date(), send: false });
    expect(drafted).toMatchObject({ status: 'draft', newsletter: { status: 'draft' } });

    const sent = await publishNewsletter(db(), { ...base, now: new Date(), send: true });
    expect(sent).toMatchObject({ status: 'sent', newsletter: { status: 'sent' }, textsQueued: 1 });
    expect(await publishNewsletter(db(), { ...base, now: new Date(), send: true })).toEqual({ status: 'empty' });
  });
});

async function memberPhone(loop: number, memberId: number) {
  const detail = (await callAs(t.app, staff, 'GET', `/api/loops/${loop}`)).json<{
    members: Array<{ id: number; user: { phoneNumber: string } }>;
  }>();
  return detail.members.find((m) => m.id === memberId)?.user.phoneNumber;
}

async function ownerMemberId(loop: number) {
  const detail = (await callAs(t.app, staff, 'GET', `/api/loops/${loop}`)).json<{ members: Array<{ id: number; userId: number }> }>();
  return detail.members.find((m) => m.userId === owner.user.id)?.id;
}
