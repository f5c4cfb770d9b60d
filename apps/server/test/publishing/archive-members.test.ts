import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { personalArchiveKey } from '../../src/services/newsletters/personal-archive-key';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';
import { addUpdate, callAs, generateAs } from '../helpers/newsletters';

// An old newsletter link opens that newsletter, not the later ones: the list of past issues is
// for the Loop's current members, signed in or through their own link (decision 0053).
let t: TestContext;
let owner: Awaited<ReturnType<typeof signUp>>;
let member: Awaited<ReturnType<typeof signUp>>;
let leaver: Awaited<ReturnType<typeof signUp>>;
let loopId: number;
let memberId: number;
let leaverId: number;
let first: { id: number; urlId: string };

const db = () => t.testDb.database.db;
const get = (url: string, cookie?: string) => t.app.inject({ url, headers: { accept: 'text/html', ...(cookie ? { cookie } : {}) } });
const SECRET = 'archive-test-secret-0123456789abcdef';

async function sendIssue(news: string) {
  await addUpdate(db(), loopId, owner.user.id, news);
  const draft = await generateAs(t.app, owner.cookie, loopId);
  expect((await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loopId}/newsletters/${draft.id}/send`)).statusCode).toBe(200);
  return draft;
}

beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET: SECRET });
  owner = await signUp(t.app, { firstName: 'Olive' });
  member = await signUp(t.app, { firstName: 'Mia' });
  leaver = await signUp(t.app, { firstName: 'Lee' });
  loopId = (await createLoopAs(t.app, owner.cookie, { name: 'Archive Family' })).id;
  memberId = (await addActiveMemberAs(t.app, owner.cookie, loopId, { phoneNumber: member.user.phoneNumber })).id;
  leaverId = (await addActiveMemberAs(t.app, owner.cookie, loopId, { phoneNumber: leaver.user.phoneNumber })).id;
  first = await sendIssue('First news');
  // Lee is removed; the Loop goes on without him.
  const removed = await t.app.inject({
    method: 'DELETE',
    url: `/api/loops/${loopId}/members/${leaverId}`,
    headers: { cookie: owner.cookie },
  });
  expect(removed.statusCode).toBeLessThan(300);
  await sendIssue('Later news, after Lee left');
});
afterAll(() => t.close());

const listed = (html: string) => [...html.matchAll(/<li><a href="\/newsletters\/([^"]+)"/g)].map((m) => m[1]);

describe('the past issues behind an old link', () => {
  it("a stranger holding one old link reads that issue, not the list: a page that says it is the members'", async () => {
    expect((await get(`/newsletters/${first.urlId}`)).statusCode).toBe(200);
    const res = await get(`/newsletters/${first.urlId}/archive`);
    expect(res.statusCode).toBe(403);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain("Past issues are for the Loop's members");
    expect(res.body).toContain('<a href="/auth">Sign in</a>');
    expect(res.body).not.toContain('Archive Family');
    expect(listed(res.body)).toEqual([]);
  });

  it('a removed member, signed in, gets the same page, and their own link is gone', async () => {
    const res = await get(`/newsletters/${first.urlId}/archive`, leaver.cookie);
    expect(res.statusCode).toBe(403);
    expect(listed(res.body)).toEqual([]);
    const own = await get(`/newsletters/past/${personalArchiveKey(SECRET, leaverId)}`);
    expect(own.statusCode).toBe(404);
    expect(own.body).not.toContain('Archive Family');
  });

  it('a current member signed in sees every issue, the one sent after the old link too', async () => {
    const res = await get(`/newsletters/${first.urlId}/archive`, member.cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(listed(res.body)).toHaveLength(2);
    expect(listed(res.body)[1]).toBe(first.urlId);
  });

  it('a member without signing in opens the list with their own link; a link made up or altered is the 404', async () => {
    const key = personalArchiveKey(SECRET, memberId);
    const res = await get(`/newsletters/past/${key}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Archive Family</h1>');
    expect(listed(res.body)).toHaveLength(2);
    const mac = key.split('-').slice(1).join('-');
    for (const forged of [
      `${leaverId}-${mac}`,
      `${memberId}-${'A'.repeat(32)}`,
      personalArchiveKey('another-secret-0123456789abcdef', memberId),
      'x',
    ]) {
      expect((await get(`/newsletters/past/${forged}`)).statusCode, forged).toBe(404);
    }
  });
});
