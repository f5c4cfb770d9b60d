import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InviteLinkStatus } from '@loop/shared/loops';
import { messages } from '../../../src/db/schema';
import { createTestApp, signUp, uniquePhone, type TestApp, type TestContext } from '../../helpers/app';
import { createLoopAs } from '../../helpers/loops';

// A leaked invite link (decision 0053): 70 strangers' numbers typed into the join page from 70
// addresses. Joins through a link have their own limit per link, the owner sees them and stops the
// link by making a new one, and they never use up the owner's own adds.
let t: TestContext;
let app: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The production defaults of the limits at play.
  app = await t.rebuild({
    JOINS_PER_INVITE_LINK_PER_HOUR: '10',
    JOINS_PER_INVITE_LINK_PER_DAY: '30',
    MEMBER_ADDS_PER_ACCOUNT_PER_HOUR: '50',
    MEMBER_ADDS_PER_ACCOUNT_PER_DAY: '200',
  });
});
afterAll(() => t.close());

const join = (code: string, phoneNumber: string, i: number) =>
  app.inject({
    method: 'POST',
    url: `/api/invites/${code}/join`,
    remoteAddress: `203.0.113.${i + 1}`,
    payload: { firstName: 'Stranger', lastName: `No${i}`, phoneNumber, messagingPreference: 'sms' },
  });

describe('a leaked invite link', () => {
  it('texts at most its own limit of strangers, leaves the owner’s adds alone, shows the joins, and stops when replaced', async () => {
    const owner = await signUp(app, { firstName: 'Olive' });
    const loop = await createLoopAs(app, owner.cookie, { name: 'Book Club' });
    const invite = async () =>
      (await app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } })).json<{
        code: string;
      }>();
    const leaked = await invite();

    const answers = [];
    for (let i = 0; i < 70; i++) answers.push(await join(leaked.code, uniquePhone(), i));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(10);
    const refused = answers.filter((a) => a.statusCode === 429);
    expect(refused).toHaveLength(60);
    expect(refused[0]?.json().message).toMatch(
      /^This invite link has been used too often this hour\. Please try again in \d+ minutes?, or ask/,
    );
    const invitations = await t.testDb.database.db
      .select()
      .from(messages)
      .where(and(eq(messages.loopId, loop.id), eq(messages.kind, 'invitation')));
    expect(invitations).toHaveLength(10);

    // The owner's own adds are untouched.
    const own = await app.inject({
      method: 'POST',
      url: `/api/loops/${loop.id}/members`,
      headers: { cookie: owner.cookie },
      payload: { firstName: 'Real', lastName: 'Friend', phoneNumber: uniquePhone() },
    });
    expect(own.statusCode).toBe(201);

    // The owner sees who came in through the link, newest first, and the limits.
    const status = await app.inject({ url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } });
    expect(status.statusCode).toBe(200);
    const seen = status.json<InviteLinkStatus>();
    expect(seen.link?.code).toBe(leaked.code);
    expect(seen.limits).toEqual({ perHour: 10, perDay: 30 });
    expect(seen.recentJoins.map((j) => j.lastName)).toEqual(Array.from({ length: 10 }, (_, i) => `No${9 - i}`));
    expect(seen.recentJoins.every((j) => j.status === 'pending')).toBe(true);

    // A new link stops the old one at once; the new one has its own count.
    const fresh = await invite();
    expect((await join(leaked.code, uniquePhone(), 100)).statusCode).toBe(410);
    expect((await join(fresh.code, uniquePhone(), 101)).statusCode).toBe(200);
    const after = (await app.inject({ url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } })).json<InviteLinkStatus>();
    expect(after.link?.code).toBe(fresh.code);
    expect(after.recentJoins).toHaveLength(11);
  });

  it('shows the joins only to the owner and staff', async () => {
    const owner = await signUp(app);
    const loop = await createLoopAs(app, owner.cookie, { name: 'Private' });
    const stranger = await signUp(app);
    const res = await app.inject({ url: `/api/loops/${loop.id}/invite`, headers: { cookie: stranger.cookie } });
    expect(res.statusCode).toBe(404);
  });
});
