import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { groupMessages, members } from '../../src/db/schema';
import { createTestApp, signUp, type TestContext } from '../helpers/app';
import { newsletters } from '../../src/db/schema';
import { addActiveMemberAs, addMemberAs, createLoopAs, insertUpdate } from '../helpers/loops';

/**
 * The permission matrix of decision 0003: for every Loop route, what the owner, a member, a stranger,
 * staff and a signed-out visitor get. Each case runs on its own fresh Loop.
 */
type Role = 'owner' | 'organizer' | 'member' | 'stranger' | 'staff' | 'signedOut';
const ROLES: Role[] = ['owner', 'organizer', 'member', 'stranger', 'staff', 'signedOut'];

let t: TestContext;
let cookies: Record<Exclude<Role, 'signedOut'>, string>;
let people: Record<'owner' | 'organizer' | 'member' | 'stranger', { id: number; phone: string }>;
let phoneSeq = 0;

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff@example.com' });
  const owner = await signUp(t.app);
  const member = await signUp(t.app);
  const stranger = await signUp(t.app);
  const organizer = await signUp(t.app);
  const staff = await signUp(t.app, { email: 'staff@example.com' });
  // The stranger runs a Loop of their own: another Loop's owner is a stranger to this one.
  await createLoopAs(t.app, stranger.cookie, { name: "Stranger's Loop" });
  cookies = { owner: owner.cookie, organizer: organizer.cookie, member: member.cookie, stranger: stranger.cookie, staff: staff.cookie };
  people = {
    owner: { id: owner.user.id, phone: owner.account.phoneNumber },
    member: { id: member.user.id, phone: member.account.phoneNumber },
    stranger: { id: stranger.user.id, phone: stranger.account.phoneNumber },
    organizer: { id: organizer.user.id, phone: organizer.account.phoneNumber },
  };
});
afterAll(() => t.close());

async function freshLoop() {
  const loop = await createLoopAs(t.app, cookies.owner);
  const member = await addActiveMemberAs(t.app, cookies.owner, loop.id, { phoneNumber: people.member.phone });
  // A co-organizer (decision 0059): a member who said yes, made an organizer by the owner.
  const organizer = await addActiveMemberAs(t.app, cookies.owner, loop.id, { phoneNumber: people.organizer.phone });
  const made = await t.app.inject({
    method: 'PUT',
    url: `/api/loops/${loop.id}/members/${organizer.id}`,
    headers: { cookie: cookies.owner },
    payload: { organizer: true },
  });
  if (made.statusCode !== 200) throw new Error(`organizer: ${made.statusCode} ${made.body}`);
  phoneSeq += 1;
  const extra = await addActiveMemberAs(t.app, cookies.owner, loop.id, { phoneNumber: `+1415555${String(3000 + phoneSeq)}` });
  const db = t.testDb.database.db;
  const ownersUpdate = await insertUpdate(db, loop.id, people.owner.id, "Owner's news");
  const membersUpdate = await insertUpdate(db, loop.id, people.member.id, "Member's news");
  // The stranger's phone was added too: invited (pending), so still a stranger to the Loop.
  const invitation = await addMemberAs(t.app, cookies.owner, loop.id, { phoneNumber: people.stranger.phone });
  const [scheduled] = await db
    .insert(groupMessages)
    .values({ loopId: loop.id, senderId: people.owner.id, senderName: 'Ada', message: 'Later', sendAt: new Date(Date.now() + 3_600_000) })
    .returning();
  if (!scheduled) throw new Error('no group message');
  // A scheduled draft (decision 0040), as the scheduler writes it 24 hours before it goes.
  const [draft] = await db
    .insert(newsletters)
    .values({
      loopId: loop.id,
      urlId: `perm-${loop.id}`,
      title: 'Draft',
      content: '# Draft',
      periodEnd: new Date(),
      sendAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  if (!draft) throw new Error('no draft');
  const [owner] = await db
    .select({ id: members.id })
    .from(members)
    .where(and(eq(members.loopId, loop.id), eq(members.userId, people.owner.id)));
  if (!owner) throw new Error('no owner membership');
  return { loop, owner, member, organizer, extra, ownersUpdate, membersUpdate, invitation, scheduled, draft };
}
type Fixture = Awaited<ReturnType<typeof freshLoop>>;

interface RouteCase {
  name: string;
  method: 'GET' | 'PUT' | 'POST' | 'DELETE';
  url: (f: Fixture) => string;
  payload?: Record<string, unknown> | ((f: Fixture) => Record<string, unknown>);
  expected: Record<Role, number>;
}

const VIEW = { owner: 200, organizer: 200, member: 200, stranger: 404, staff: 200, signedOut: 401 };
/** The owner's rights, which a co-organizer shares (decision 0059). */
const MANAGE = { owner: 200, organizer: 200, member: 403, stranger: 404, staff: 200, signedOut: 401 };
const CREATE = { owner: 201, organizer: 201, member: 403, stranger: 404, staff: 201, signedOut: 401 };
/** The owner's alone: deleting the Loop, appointing organizers, handing the Loop over (decision 0059). */
const OWNER = { ...MANAGE, organizer: 403 };
/** Staff's sneak peek routes: staff only, before the Loop is looked at (decision 0018). */
const STAFF = { owner: 403, organizer: 403, member: 403, stranger: 403, staff: 201, signedOut: 401 };
const STAFF_READ = { ...STAFF, staff: 200 };
const ANSWER = { owner: 404, organizer: 404, member: 404, stranger: 200, staff: 404, signedOut: 401 };

const ROUTES: RouteCase[] = [
  { name: 'GET loop', method: 'GET', url: (f) => `/api/loops/${f.loop.id}`, expected: VIEW },
  { name: 'PUT loop', method: 'PUT', url: (f) => `/api/loops/${f.loop.id}`, payload: { context: 'changed' }, expected: MANAGE },
  {
    name: 'PUT reminder schedule',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}`,
    payload: { reminderSchedule: [] },
    expected: MANAGE,
  },
  // The owner pauses, resumes and schedules their own Loop as staff do (Settings).
  { name: 'PUT loop paused', method: 'PUT', url: (f) => `/api/loops/${f.loop.id}`, payload: { paused: true }, expected: MANAGE },
  {
    name: 'PUT loop frequency, day and time',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}`,
    payload: { frequency: 'weekly', newsletterDay: 'friday', newsletterTime: '17:30' },
    expected: MANAGE,
  },
  { name: 'DELETE loop', method: 'DELETE', url: (f) => `/api/loops/${f.loop.id}`, expected: OWNER },
  {
    name: 'PUT member organizer',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}/members/${f.member.id}`,
    payload: { organizer: true },
    expected: OWNER,
  },
  {
    name: 'PUT member context (an organizer edits members)',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}/members/${f.member.id}`,
    payload: { context: 'Grandma' },
    expected: MANAGE,
  },
  {
    name: 'PUT owner (hand the Loop over)',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}/owner`,
    payload: (f) => ({ memberId: f.member.id }),
    expected: OWNER,
  },
  {
    name: 'DELETE the owner as a member',
    method: 'DELETE',
    url: (f) => `/api/loops/${f.loop.id}/members/${f.owner.id}`,
    expected: { owner: 400, organizer: 400, member: 403, stranger: 404, staff: 400, signedOut: 401 },
  },
  { name: 'GET invite', method: 'GET', url: (f) => `/api/loops/${f.loop.id}/invite`, expected: MANAGE },
  { name: 'POST invite', method: 'POST', url: (f) => `/api/loops/${f.loop.id}/invite`, expected: CREATE },
  {
    name: 'POST member',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/members`,
    payload: { firstName: 'New', lastName: 'Person', phoneNumber: '+14155550999' },
    expected: CREATE,
  },
  { name: 'DELETE member', method: 'DELETE', url: (f) => `/api/loops/${f.loop.id}/members/${f.extra.id}`, expected: MANAGE },
  { name: "DELETE owner's update", method: 'DELETE', url: (f) => `/api/loops/${f.loop.id}/updates/${f.ownersUpdate.id}`, expected: MANAGE },
  {
    name: "DELETE member's update",
    method: 'DELETE',
    url: (f) => `/api/loops/${f.loop.id}/updates/${f.membersUpdate.id}`,
    expected: { owner: 200, organizer: 200, member: 200, stranger: 404, staff: 200, signedOut: 401 },
  },
  // The owner's own reminder questions and who has sent for the coming issue: owner and staff (decision 0043).
  { name: 'GET reminder questions', method: 'GET', url: (f) => `/api/loops/${f.loop.id}/reminder-questions`, expected: MANAGE },
  {
    name: 'PUT reminder questions',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}/reminder-questions`,
    payload: { questions: ['Who visited Grandma?'] },
    expected: MANAGE,
  },
  { name: 'GET coming issue', method: 'GET', url: (f) => `/api/loops/${f.loop.id}/coming-issue`, expected: MANAGE },
  // Group messages (decision 0042): the owner and staff; a member 403, another Loop's owner 404.
  {
    name: 'POST group message preview',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/group-messages/preview`,
    payload: { message: 'Picnic on Sunday' },
    expected: MANAGE,
  },
  {
    name: 'POST group message',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/group-messages`,
    payload: { message: 'Picnic on Sunday' },
    expected: CREATE,
  },
  {
    name: 'POST scheduled group message',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/group-messages`,
    payload: { message: 'Picnic on Sunday', sendAt: new Date(Date.now() + 86_400_000).toISOString() },
    expected: CREATE,
  },
  { name: 'GET group messages', method: 'GET', url: (f) => `/api/loops/${f.loop.id}/group-messages`, expected: MANAGE },
  {
    name: 'POST cancel group message',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/group-messages/${f.scheduled.id}/cancel`,
    expected: MANAGE,
  },
  { name: 'GET sneak peek preview', method: 'GET', url: (f) => `/api/loops/${f.loop.id}/sneak-peek/preview`, expected: STAFF_READ },
  // The owner runs their Loop's newsletter as staff do on every Loop (decision 0040).
  {
    name: 'PUT newsletter review setting',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}`,
    payload: { newsletterReview: true },
    expected: MANAGE,
  },
  { name: 'POST generate newsletter', method: 'POST', url: (f) => `/api/loops/${f.loop.id}/newsletters/generate`, expected: CREATE },
  {
    name: 'GET newsletter preview',
    method: 'GET',
    url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}/preview`,
    expected: MANAGE,
  },
  {
    name: 'PUT newsletter',
    method: 'PUT',
    url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}`,
    payload: { content: '# Edited' },
    expected: MANAGE,
  },
  {
    name: 'POST approve newsletter',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}/approve`,
    expected: MANAGE,
  },
  {
    name: 'POST move newsletter',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}/move`,
    payload: { sendAt: new Date(Date.now() + 3 * 86_400_000).toISOString() },
    expected: MANAGE,
  },
  { name: 'POST skip newsletter', method: 'POST', url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}/skip`, expected: MANAGE },
  {
    name: 'POST unapprove newsletter',
    method: 'POST',
    url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}/unapprove`,
    expected: MANAGE,
  },
  { name: 'POST send newsletter', method: 'POST', url: (f) => `/api/loops/${f.loop.id}/newsletters/${f.draft.id}/send`, expected: MANAGE },
  // The sneak peek stays staff's: the gate answers before the Loop is looked at.
  { name: 'POST sneak peek', method: 'POST', url: (f) => `/api/loops/${f.loop.id}/sneak-peek`, expected: STAFF },
  // An invitation is answered by the holder of its phone only: not its Loop's owner, not staff (decision 0035).
  { name: 'POST accept invitation', method: 'POST', url: (f) => `/api/invitations/${f.invitation.id}/accept`, expected: ANSWER },
  { name: 'POST decline invitation', method: 'POST', url: (f) => `/api/invitations/${f.invitation.id}/decline`, expected: ANSWER },
];

describe.each(ROUTES)('$name', (route) => {
  it.each(ROLES)('as %s', async (role) => {
    const fixture = await freshLoop();
    const res = await t.app.inject({
      method: route.method,
      url: route.url(fixture),
      headers: role === 'signedOut' ? {} : { cookie: cookies[role] },
      ...(route.payload ? { payload: typeof route.payload === 'function' ? route.payload(fixture) : route.payload } : {}),
    });
    expect(res.statusCode, res.body).toBe(route.expected[role]);
    if (res.statusCode >= 400) expect(typeof res.json().message).toBe('string');
    // What a refused person sees never reveals the Loop.
    if (res.statusCode === 404) expect(res.body).not.toContain(fixture.loop.name);
  });
});

describe("another Loop's owner", () => {
  it("cannot see or change this Loop's newsletter: 404, as for a Loop that does not exist", async () => {
    const { loop, draft } = await freshLoop();
    const other = await signUp(t.app);
    await createLoopAs(t.app, other.cookie);
    for (const [method, url] of [
      ['GET', `/api/loops/${loop.id}/newsletters/${draft.id}/preview`],
      ['POST', `/api/loops/${loop.id}/newsletters/${draft.id}/send`],
      ['POST', `/api/loops/${loop.id}/newsletters/${draft.id}/approve`],
      ['POST', `/api/loops/${loop.id}/newsletters/${draft.id}/skip`],
      ['POST', `/api/loops/${loop.id}/newsletters/generate`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: { cookie: other.cookie } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(loop.name);
    }
    const after = await t.app.inject({ url: `/api/loops/${loop.id}/newsletters/${draft.id}/preview`, headers: { cookie: cookies.owner } });
    expect(after.json()).toMatchObject({ status: 'draft', skippedAt: null, approvedAt: null, content: '# Draft' });
  });
});

describe('a Loop that does not exist', () => {
  it('looks the same as a Loop you may not see', async () => {
    const missing = await t.app.inject({ url: '/api/loops/987654321', headers: { cookie: cookies.stranger } });
    const { loop } = await freshLoop();
    const hidden = await t.app.inject({ url: `/api/loops/${loop.id}`, headers: { cookie: cookies.stranger } });
    expect(missing.statusCode).toBe(404);
    expect(hidden.json()).toEqual(missing.json());
  });
});

describe('signed out', () => {
  it('cannot list or create Loops', async () => {
    expect((await t.app.inject({ url: '/api/loops' })).statusCode).toBe(401);
    const create = await t.app.inject({ method: 'POST', url: '/api/loops', payload: { name: 'x', vibe: ['fun'] } });
    expect(create.statusCode).toBe(401);
  });
});
