import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail, LoopSummary } from '@loop/shared/loops';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs } from '../helpers/loops';

// Members see each other's names, not how to reach them (decision 0054): the owner and staff see
// phone numbers and e-mail addresses, a member only their own, and a person invited who has not
// said yes, or a stranger, sees nothing of the Loop at all.
let t: TestContext;
type Account = Awaited<ReturnType<typeof signUp>>;
let owner: Account, member: Account, pending: Account, stranger: Account, staff: Account;
let loopId: number;
const textOnly = { phoneNumber: uniquePhone(), email: 'tex.typed@example.com' };
const pendingTyped = 'pat.typed@example.com';

beforeAll(async () => {
  t = await createTestApp({ ADMIN_EMAILS: 'staff.contact@example.com' });
  owner = await signUp(t.app, { firstName: 'Olive', lastName: 'Owner', email: 'olive.owner@example.com' });
  member = await signUp(t.app, { firstName: 'Mia', lastName: 'Member', email: 'mia.member@example.com' });
  pending = await signUp(t.app, { firstName: 'Pat', lastName: 'Pending', email: 'pat.pending@example.com' });
  stranger = await signUp(t.app, { firstName: 'Sam', lastName: 'Stranger' });
  staff = await signUp(t.app, { firstName: 'Stef', lastName: 'Staff', email: 'staff.contact@example.com' });
  loopId = (await createLoopAs(t.app, owner.cookie, { name: 'Contact Test' })).id;
  await addActiveMemberAs(t.app, owner.cookie, loopId, { phoneNumber: member.account.phoneNumber, firstName: 'Mia' });
  // A person without an account, with the address the owner typed for them, who said yes.
  const added = await t.app.inject({
    method: 'POST',
    url: `/api/loops/${loopId}/members`,
    headers: { cookie: owner.cookie },
    payload: { firstName: 'Tex', lastName: 'Texter', ...textOnly },
  });
  expect(added.statusCode).toBe(201);
  // Invited with a typed address, never said yes.
  const invited = await t.app.inject({
    method: 'POST',
    url: `/api/loops/${loopId}/members`,
    headers: { cookie: owner.cookie },
    payload: { firstName: 'Pat', lastName: 'Pending', phoneNumber: pending.account.phoneNumber, email: pendingTyped },
  });
  expect(invited.statusCode).toBe(201);
});
afterAll(() => t.close());

const get = (cookie: string, url: string) => t.app.inject({ url, headers: { cookie } });
const contact = () => ({
  owner: [owner.account.phoneNumber, owner.account.email],
  member: [member.account.phoneNumber, member.account.email],
  pending: [pending.account.phoneNumber, pendingTyped],
  textOnly: [textOnly.phoneNumber, textOnly.email],
});
/** Every answer a person in the Loop reads about it and their Loops. */
const answers = async (cookie: string) =>
  [
    await get(cookie, `/api/loops/${loopId}`),
    await get(cookie, '/api/loops'),
    await get(cookie, `/api/loops/${loopId}/newsletters`),
    await get(cookie, `/api/loops/${loopId}/coming-issue`),
    await get(cookie, '/api/invitations'),
  ]
    .map((res) => res.body)
    .join('\n');

describe('who sees members’ phone numbers and e-mail addresses', () => {
  it('the owner sees everyone’s, including those of people who have not said yes', async () => {
    const detail = (await get(owner.cookie, `/api/loops/${loopId}`)).json<LoopDetail>();
    const shown = JSON.stringify(detail.members);
    for (const value of Object.values(contact()).flat()) expect(shown).toContain(value);
  });

  it('staff see everyone’s', async () => {
    const detail = (await get(staff.cookie, `/api/loops/${loopId}`)).json<LoopDetail>();
    expect(detail.role).toBe('staff');
    for (const value of Object.values(contact()).flat()) expect(JSON.stringify(detail)).toContain(value);
  });

  it('a member sees every name but only their own phone number and address, in every answer', async () => {
    const detail = (await get(member.cookie, `/api/loops/${loopId}`)).json<LoopDetail>();
    expect(detail.role).toBe('member');
    expect(detail.members.map((m) => m.user.firstName).sort()).toEqual(['Mia', 'Olive', 'Pat', 'Tex']);
    const mine = detail.members.find((m) => m.user.firstName === 'Mia');
    expect(mine?.user).toMatchObject({ phoneNumber: member.account.phoneNumber, email: member.account.email });
    for (const other of detail.members.filter((m) => m !== mine)) {
      expect(other.user).toMatchObject({ phoneNumber: null, email: null, emailStatus: 'none' });
      expect(other).toMatchObject({ lastError: null, deliveryNote: null });
    }
    expect(detail.creator).toEqual({ firstName: 'Olive', lastName: 'Owner', email: null });
    const listed = (await get(member.cookie, '/api/loops')).json<LoopSummary[]>();
    expect(listed.find((l) => l.id === loopId)?.creator.email).toBeNull();

    const everything = await answers(member.cookie);
    const { owner: ownerContact, pending: pendingContact, textOnly: textOnlyContact } = contact();
    for (const value of [...ownerContact, ...pendingContact, ...textOnlyContact]) expect(everything).not.toContain(value);
  });

  it('the owner’s own list still names their address', async () => {
    const listed = (await get(owner.cookie, '/api/loops')).json<LoopSummary[]>();
    expect(listed.find((l) => l.id === loopId)?.creator.email).toBe(owner.account.email);
  });

  it('a person invited who has not said yes, and a stranger, see nothing of the Loop and nobody’s details', async () => {
    for (const viewer of [pending, stranger]) {
      expect((await get(viewer.cookie, `/api/loops/${loopId}`)).statusCode).toBe(404);
      const everything = await answers(viewer.cookie);
      const { owner: ownerContact, member: memberContact, textOnly: textOnlyContact } = contact();
      for (const value of [...ownerContact, ...memberContact, ...textOnlyContact, pendingTyped]) expect(everything).not.toContain(value);
    }
    // The invited person's own invitation names the Loop and who invited them, no more.
    const invitations = (await get(pending.cookie, '/api/invitations')).json<{ loop: { id: number } }[]>();
    expect(invitations.map((i) => i.loop.id)).toEqual([loopId]);
  });
});
