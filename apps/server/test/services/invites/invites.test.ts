import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members, users } from '../../../src/db/schema';
import { DAY_MS } from '../../../src/lib/clock';
import { createTestApp, signUp, type TestContext } from '../../helpers/app';
import { createLoopAs } from '../../helpers/loops';

let now = new Date('2026-05-01T10:00:00Z');
let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({}, { clock: () => now });
});
afterAll(() => t.close());

async function newInvite() {
  const owner = await signUp(t.app);
  const loop = await createLoopAs(t.app, owner.cookie, { name: 'Cousins' });
  const res = await t.app.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } });
  expect(res.statusCode).toBe(201);
  return { owner, loop, invite: res.json<{ inviteUrl: string; code: string; expiresAt: string }>() };
}

const join = (code: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/api/invites/${code}/join`, payload });

const person = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Jo',
  lastName: 'March',
  email: '',
  phoneNumber: '+14155550160',
  messagingPreference: 'whatsapp',
  ...overrides,
});

describe('invites', () => {
  it('makes a 128-bit code that lasts 7 days, and a path to the join page', async () => {
    const { invite } = await newInvite();
    expect(invite.code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(invite.inviteUrl).toBe(`/join/${invite.code}`);
    expect(new Date(invite.expiresAt).getTime() - now.getTime()).toBe(7 * DAY_MS);
    const preview = await t.app.inject({ url: `/api/invites/${invite.code}` });
    // The join page names who invited them, by first name only: nothing to reach them by.
    expect(preview.json()).toEqual({ loopName: 'Cousins', expiresAt: invite.expiresAt, invitedBy: 'Ada' });
    expect(preview.body).not.toMatch(/@|\+1/);
  });

  it('lets many people join, and joining twice gives one membership', async () => {
    const { loop, invite } = await newInvite();
    const first = await join(invite.code, person());
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, loopId: loop.id, loopName: 'Cousins' });
    // Whoever holds the link learns nothing of whether the phone was in the Loop already.
    const again = await join(invite.code, person({ phoneNumber: '(415) 555-0160' }));
    expect(again.json()).toEqual(first.json());
    expect((await join(invite.code, person({ phoneNumber: '+14155550161' }))).statusCode).toBe(200);

    const db = t.testDb.database.db;
    const [joiner] = await db.select().from(users).where(eq(users.phoneNumber, '+14155550160'));
    expect(joiner).toMatchObject({ firstName: 'Jo', messagingPreference: 'whatsapp', passwordHash: null, email: null });
    expect(await db.select().from(members).where(eq(members.loopId, loop.id))).toHaveLength(3);
  });

  it('answers 404 for an unknown code and 410 for an expired one', async () => {
    const unknown = await join('AAAAAAAAAAAAAAAAAAAAAA', person());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('This invite link is not valid. Check the link, or ask for a new one.');
    expect((await join('short', person())).statusCode).toBe(400);

    const { invite } = await newInvite();
    now = new Date(now.getTime() + 7 * DAY_MS + 1000);
    const expired = await join(invite.code, person({ phoneNumber: '+14155550170' }));
    expect(expired.statusCode).toBe(410);
    expect(expired.json().message).toBe("This invite link has expired. Ask the Loop's creator for a new one.");
    expect((await t.app.inject({ url: `/api/invites/${invite.code}` })).statusCode).toBe(410);
  });

  it.each([
    [{ firstName: ' ' }, 'First name is required'],
    [{ phoneNumber: 'call me' }, 'Phone number must be a valid international number, like +1 415 555 0100'],
    [{ email: 'jo@' }, 'Email must be a valid email address'],
    [{ messagingPreference: 'email' }, 'Messaging preference must be "sms" or "whatsapp"'],
  ])('refuses %j with a 400 and stores nothing', async (change, message) => {
    const { loop, invite } = await newInvite();
    const res = await join(invite.code, person({ phoneNumber: '+14155550180', ...change }));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message);
    expect(await t.testDb.database.db.select().from(members).where(eq(members.loopId, loop.id))).toHaveLength(1);
  });

  it('does not tell that an email belongs to another account (decision 0013): the joiner gets in, the email is not stored on them', async () => {
    const { loop, invite } = await newInvite();
    const other = await signUp(t.app);
    const res = await join(invite.code, person({ phoneNumber: '+14155550190', email: other.account.email }));
    expect(res.statusCode).toBe(200);
    const db = t.testDb.database.db;
    expect(await db.select({ email: users.email }).from(users).where(eq(users.phoneNumber, '+14155550190'))).toEqual([{ email: null }]);
    expect(await db.select().from(members).where(eq(members.loopId, loop.id))).toHaveLength(2);
  });
});

describe('join rate limit', () => {
  it('stops one phone number from joining without end', async () => {
    const limited = await t.rebuild({ AUTH_RATE_LIMIT_PER_ACCOUNT: '2' });
    const owner = await signUp(limited);
    const loop = await createLoopAs(limited, owner.cookie);
    const code = (await limited.inject({ method: 'POST', url: `/api/loops/${loop.id}/invite`, headers: { cookie: owner.cookie } })).json()
      .code;
    const tryJoin = () =>
      limited.inject({ method: 'POST', url: `/api/invites/${code}/join`, payload: person({ phoneNumber: '+14155550199' }) });
    expect((await tryJoin()).statusCode).toBe(200);
    expect((await tryJoin()).statusCode).toBe(200);
    const blocked = await tryJoin();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/^Too many attempts/);
  });
});
