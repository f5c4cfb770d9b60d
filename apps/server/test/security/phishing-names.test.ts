import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { like, or } from 'drizzle-orm';
import { loops, messages, users } from '../../src/db/schema';
import { createTestApp, newAccount, signUp, uniquePhone, type TestContext } from '../helpers/app';
import { addMemberAs, createLoopAs } from '../helpers/loops';
import { digestTables } from './db-digest';

// Loop names and people's names go into texts (invitations quote both): they cannot carry a link,
// a web address, a link shortener or a phone number (one rule, packages/shared/src/text.ts).
let t: TestContext;
let owner: Awaited<ReturnType<typeof signUp>>;
let loopId: number;
let memberId: number;
let inviteCode: string;

beforeAll(async () => {
  t = await createTestApp();
  owner = await signUp(t.app, { firstName: 'Olive' });
  loopId = (await createLoopAs(t.app, owner.cookie, { name: 'Book Club' })).id;
  memberId = (await addMemberAs(t.app, owner.cookie, loopId, { phoneNumber: uniquePhone() })).id;
  const invite = await t.app.inject({ method: 'POST', url: `/api/loops/${loopId}/invite`, headers: { cookie: owner.cookie } });
  inviteCode = invite.json<{ inviteUrl: string }>().inviteUrl.split('/').at(-1) ?? '';
});
afterAll(() => t.close());

const LURES = [
  ['a web address', 'URGENT bank alert: verify at evil.co/x', /can't contain a link or web address/],
  ['a link', 'Prize https://win.example', /can't contain a link or web address/],
  ['a shortener', 'Claim at bit ly/abc', /can't contain a link or web address/],
  ['a phone number', 'Call 415-555-0101 now', /can't contain a phone number/],
  // Invisible characters (format characters such as U+200B) are read past (decision 0054).
  ['a web address with a zero-width space', 'paypal\u200b.com/verify', /can't contain a link or web address/],
  ['a phone number with soft hyphens', 'Call 415\u00ad555\u00ad0101', /can't contain a phone number/],
  // Names that claim to be a bank, a government body or a payment service (decision 0054).
  ['a bank', 'Chase Bank Fraud Alert', /can't name a bank, a government body or a payment service/],
  ['a government body', 'IRS Final Notice', /can't name a bank, a government body or a payment service/],
  [
    'a web address in words',
    'paypal dot com slash login',
    /can't name a bank, a government body or a payment service, or spell out a web address/,
  ],
] as const;

const call = (method: 'POST' | 'PUT', url: string, payload: object, cookie?: string) =>
  t.app.inject({ method, url, payload, ...(cookie ? { headers: { cookie } } : {}) });

describe.each(LURES)('a name with %s', (_what, lure, message) => {
  const routes = (): [string, () => ReturnType<typeof call>, RegExp][] => [
    ['Loop name on create', () => call('POST', '/api/loops', { name: lure, vibe: ['family'] }, owner.cookie), /^Loop name /],
    ['Loop name on rename', () => call('PUT', `/api/loops/${loopId}`, { name: lure }, owner.cookie), /^Loop name /],
    ['first name at sign-up', () => call('POST', '/api/register', newAccount({ firstName: lure })), /^First name /],
    ['last name at sign-up', () => call('POST', '/api/register', newAccount({ lastName: lure })), /^Last name /],
    [
      'a member’s name typed by the owner',
      () => call('POST', `/api/loops/${loopId}/members`, { firstName: lure, lastName: 'X', phoneNumber: uniquePhone() }, owner.cookie),
      /^First name /,
    ],
    [
      'a member’s name changed by the owner',
      () => call('PUT', `/api/loops/${loopId}/members/${memberId}`, { lastName: lure }, owner.cookie),
      /^Last name /,
    ],
    [
      'a name on the invite page',
      () => call('POST', `/api/invites/${inviteCode}/join`, { firstName: lure, lastName: 'X', phoneNumber: uniquePhone() }),
      /^First name /,
    ],
  ];

  it('is refused with a 400 that says why, everywhere a name is set, and nothing is stored or texted', async () => {
    const before = await digestTables(t.app.ctx.db);
    for (const [where, send, label] of routes()) {
      const res = await send();
      expect(res.statusCode, where).toBe(400);
      expect(res.json().message, where).toMatch(label);
      expect(res.json().message, where).toMatch(message);
    }
    expect(await digestTables(t.app.ctx.db)).toEqual(before);
    const db = t.app.ctx.db;
    const stored = [
      ...(await db
        .select({ id: loops.id })
        .from(loops)
        .where(like(loops.name, `%${lure}%`))),
      ...(await db
        .select({ id: users.id })
        .from(users)
        .where(or(like(users.firstName, `%${lure}%`), like(users.lastName, `%${lure}%`)))),
      ...(await db
        .select({ id: messages.id })
        .from(messages)
        .where(like(messages.body, `%${lure.slice(-10)}%`))),
    ];
    expect(stored).toEqual([]);
  });
});

describe('ordinary names', () => {
  it('still work: dots with a space, initials, years, numbers', async () => {
    for (const name of [
      'St. John family',
      'J.R.R. Tolkien fans',
      'Class of 2019-2024',
      'Team 42',
      'Bank Street Book Club',
      'The IRSay family',
    ]) {
      const res = await call('POST', '/api/loops', { name, vibe: ['family'] }, owner.cookie);
      expect(res.statusCode, name).toBe(201);
    }
    const res = await call(
      'POST',
      `/api/loops/${loopId}/members`,
      { firstName: 'Mary-Jane', lastName: "O'Neil Jr.", phoneNumber: uniquePhone() },
      owner.cookie,
    );
    expect(res.statusCode).toBe(201);
  });
});
