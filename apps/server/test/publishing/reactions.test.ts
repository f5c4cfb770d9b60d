/**
 * Reactions under an issue on its public page, and a signed-in member's tap on an emoji there
 * (decision 0056): POST /api/loops/{id}/newsletters/{newsletterId}/reactions, authorized by
 * loop-access (members and the owner; staff and strangers react to nothing).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageAssets } from '../../src/publishing/page-assets';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';
import { addUpdate, callAs, generateAs } from '../helpers/newsletters';

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

async function issue(send = true) {
  const loop = await createLoopAs(t.app, owner.cookie, { name: 'The Smiths' });
  await addActiveMemberAs(t.app, owner.cookie, loop.id, { phoneNumber: member.user.phoneNumber, firstName: 'Mia' });
  await addUpdate(t.testDb.database.db, loop.id, owner.user.id, 'We went to the beach', []);
  const draft = await generateAs(t.app, owner.cookie, loop.id);
  if (send) expect((await callAs(t.app, owner.cookie, 'POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`)).statusCode).toBe(200);
  return { loopId: loop.id, id: draft.id, urlId: draft.urlId, path: `/api/loops/${loop.id}/newsletters/${draft.id}/reactions` };
}
const page = (urlId: string, cookie?: string) => t.app.inject({ url: `/newsletters/${urlId}`, headers: cookie ? { cookie } : {} });

describe('reacting on the page', () => {
  it('a member taps ❤️: it shows under the issue with their first name, to anyone with the link; a second tap takes it back', async () => {
    const sent = await issue();
    const res = await callAs(t.app, member.cookie, 'POST', sent.path, { emoji: '❤️' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ reactions: [{ firstName: 'Mia', body: '❤️', mine: true }] });

    const anyone = (await page(sent.urlId)).body;
    expect(anyone).toContain('<span class="reaction-body">❤️</span> <span class="reaction-name">Mia</span>');
    expect(anyone).not.toContain('class="react"');
    expect(anyone).not.toContain(member.user.phoneNumber);

    const own = await page(sent.urlId, member.cookie);
    expect(own.body).toContain(`<form class="react" data-path="${sent.path}" hidden>`);
    expect(own.body).toContain('aria-pressed="true" aria-label="React ❤️"');
    expect(own.body).toContain(pageAssets.react.path);
    expect(own.headers['cache-control']).toBe('private, no-cache');

    const again = await callAs(t.app, member.cookie, 'POST', sent.path, { emoji: '❤️' });
    expect(again.json()).toEqual({ reactions: [] });
    expect((await page(sent.urlId)).body).not.toContain('reaction-name');
  });

  it('the owner reacts too; the owner sees every reaction on the page', async () => {
    const sent = await issue();
    await callAs(t.app, member.cookie, 'POST', sent.path, { emoji: '🎉' });
    const res = await callAs(t.app, owner.cookie, 'POST', sent.path, { emoji: '👏' });
    expect(res.json()).toEqual({
      reactions: [
        { firstName: 'Mia', body: '🎉', mine: false },
        { firstName: 'Olive', body: '👏', mine: true },
      ],
    });
  });

  it('the owner sees each issue’s reactions in the app (GET /api/loops/{id}/newsletters), a stranger nothing', async () => {
    const sent = await issue();
    await callAs(t.app, member.cookie, 'POST', sent.path, { emoji: '😂' });
    const list = await callAs(t.app, owner.cookie, 'GET', `/api/loops/${sent.loopId}/newsletters`);
    expect(list.statusCode).toBe(200);
    const [shown] = list.json<{ newsletters: { id: number; reactions: unknown[] }[] }>().newsletters;
    expect(shown).toMatchObject({ id: sent.id, reactions: [{ firstName: 'Mia', body: '😂' }] });
    expect(JSON.stringify(list.json())).not.toContain(member.user.phoneNumber);
    expect((await callAs(t.app, stranger.cookie, 'GET', `/api/loops/${sent.loopId}/newsletters`)).statusCode).toBe(404);
  });

  it('a stranger gets 404, staff 403, signed out 401, another emoji 400, a draft 404', async () => {
    const sent = await issue();
    expect((await callAs(t.app, stranger.cookie, 'POST', sent.path, { emoji: '❤️' })).statusCode).toBe(404);
    const byStaff = await callAs(t.app, staff, 'POST', sent.path, { emoji: '❤️' });
    expect(byStaff.statusCode).toBe(403);
    expect(byStaff.json().message).toBe("Only the Loop's members can react to its newsletters.");
    expect((await callAs(t.app, undefined, 'POST', sent.path, { emoji: '❤️' })).statusCode).toBe(401);
    const odd = await callAs(t.app, member.cookie, 'POST', sent.path, { emoji: '💩' });
    expect(odd.statusCode).toBe(400);
    expect(odd.json().message).toMatch(/^emoji must be one of/);
    const draft = await issue(false);
    expect((await callAs(t.app, member.cookie, 'POST', draft.path, { emoji: '❤️' })).statusCode).toBe(404);
  });
});
