import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopDetail, LoopMember } from '@loop/shared/loops';
import { loops } from '../../src/db/schema';
import { eq } from 'drizzle-orm';
import { confirmMembership } from '../../src/services/members/confirm-membership';
import { loadNewsletterInput } from '../../src/services/newsletters/load-newsletter-input';
import { createTestApp, signUp, uniquePhone, type TestContext } from '../helpers/app';
import { addActiveMemberAs, createLoopAs, insertUpdate } from '../helpers/loops';
import { createPerson } from '../helpers/messaging';

// Adding a phone reveals nothing about whoever holds it (decision 0031): until the person said yes
// to this Loop, its owner and members see what the owner typed; after, what the person shares.
let t: TestContext;
let alice: Awaited<ReturnType<typeof signUp>>;
let mallory: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  t = await createTestApp();
  alice = await signUp(t.app, { firstName: 'Al', lastName: 'Ice', email: 'alice@example.com' });
  mallory = await signUp(t.app, { firstName: 'Mallory', lastName: 'Mal' });
});
afterAll(() => t.close());

const as = (cookie: string) => ({
  get: (url: string) => t.app.inject({ url, headers: { cookie } }),
  send: (method: 'POST' | 'PUT', url: string, payload: object) => t.app.inject({ method, url, headers: { cookie }, payload }),
});
const detail = async (cookie: string, loopId: number) => (await as(cookie).get(`/api/loops/${loopId}`)).json<LoopDetail>();
const memberWithPhone = (loop: LoopDetail, phone: string) => loop.members.find((m) => m.user.phoneNumber === phone);
/** A member as an answer shows it, without what differs for every add (ids, the phone, times). */
const shape = ({ id: _id, invitedAt: _at, resendAt: _resend, user, ...rest }: LoopMember) => ({
  ...rest,
  user: { ...user, phoneNumber: '' },
});

describe('story: Mallory adds a phone to learn who holds it', () => {
  it('sees only what she typed, the same for an account holder’s phone as for a new one, until the holder says yes', async () => {
    // Alice chose her own time zone on her Profile: that is hers too.
    expect((await as(alice.cookie).send('PUT', '/api/user', { timeZone: 'Pacific/Chatham' })).statusCode).toBe(200);
    const loop = await createLoopAs(t.app, mallory.cookie, { name: 'Nosy' });
    const typed = { firstName: 'x', lastName: 'y' };
    const known = await as(mallory.cookie).send('POST', `/api/loops/${loop.id}/members`, {
      ...typed,
      phoneNumber: alice.account.phoneNumber,
    });
    const fresh = await as(mallory.cookie).send('POST', `/api/loops/${loop.id}/members`, { ...typed, phoneNumber: uniquePhone() });
    expect(known.statusCode).toBe(201);
    expect(known.json().user).toMatchObject({ firstName: 'x', lastName: 'y', email: null });
    expect(shape(known.json())).toEqual(shape(fresh.json()));

    const seen = await detail(mallory.cookie, loop.id);
    const pending = memberWithPhone(seen, alice.account.phoneNumber);
    expect(pending).toMatchObject({ userId: null, state: 'pending', user: { firstName: 'x', lastName: 'y', email: null } });
    expect(shape(pending as LoopMember)).toEqual(shape(memberWithPhone(seen, fresh.json().user.phoneNumber) as LoopMember));
    for (const secret of ['Ice', 'alice@example.com', `"userId":${alice.user.id},`, 'Chatham']) {
      expect(JSON.stringify(seen)).not.toContain(secret);
      expect(known.body).not.toContain(secret);
    }

    // Her label stays hers to fix while it is pending, as for anyone; Alice's account is untouched.
    const edit = await as(mallory.cookie).send('PUT', `/api/loops/${loop.id}/members/${pending?.id}`, { firstName: 'z' });
    expect(edit.statusCode).toBe(200);
    expect(edit.json().user).toMatchObject({ firstName: 'z', lastName: 'y' });
    expect((await as(alice.cookie).get('/api/user')).json()).toMatchObject({ firstName: 'Al', lastName: 'Ice' });

    // Once Alice says yes to this Loop, it shows what she shares, and her name is hers to change.
    await confirmMembership(t.app.ctx.db, pending?.id ?? 0, t.app.ctx.clock());
    const joined = memberWithPhone(await detail(mallory.cookie, loop.id), alice.account.phoneNumber);
    expect(joined).toMatchObject({
      userId: alice.user.id,
      state: 'active',
      detailsEditable: false,
      user: { firstName: 'Al', lastName: 'Ice', email: 'alice@example.com' },
    });
  });

  it('another owner’s label for a member without an account never shows in your Loop: not as a member, an author, in a newsletter or in the simulator', async () => {
    const carol = await createPerson(t.app.ctx.db, { firstName: 'Carol' });
    const family = await createLoopAs(t.app, alice.cookie, { name: 'Ice Family' });
    await addActiveMemberAs(t.app, alice.cookie, family.id, { phoneNumber: carol.phoneNumber, firstName: 'Aunt Carol' });
    const nosy = await createLoopAs(t.app, mallory.cookie, { name: 'Nosy Too' });
    await addActiveMemberAs(t.app, mallory.cookie, nosy.id, { phoneNumber: carol.phoneNumber, firstName: 'Mark' });
    await insertUpdate(t.app.ctx.db, family.id, carol.id, 'Home again');

    const alices = await detail(alice.cookie, family.id);
    expect(memberWithPhone(alices, carol.phoneNumber)?.user).toMatchObject({ firstName: 'Aunt Carol', lastName: 'Person' });
    expect(alices.updates[0]?.user).toEqual({ firstName: 'Aunt Carol', lastName: 'Person' });
    expect(memberWithPhone(await detail(mallory.cookie, nosy.id), carol.phoneNumber)?.user.firstName).toBe('Mark');

    const [loopRow] = await t.app.ctx.db.select().from(loops).where(eq(loops.id, family.id));
    const input = await loadNewsletterInput(t.app.ctx.db, {
      loop: loopRow!,
      kind: 'newsletter',
      start: new Date(0),
      end: new Date(Date.now() + 60_000),
    });
    expect(input.updates.map((u) => u.author.firstName)).toEqual(['Aunt Carol']);

    const phones = async (cookie: string) =>
      (await as(cookie).get('/api/simulator/phones')).json<{ phones: { phoneNumber: string; firstName: string }[] }>().phones;
    expect((await phones(alice.cookie)).find((p) => p.phoneNumber === carol.phoneNumber)?.firstName).toBe('Aunt Carol');
    expect((await phones(mallory.cookie)).find((p) => p.phoneNumber === carol.phoneNumber)?.firstName).toBe('Mark');
  });

  it('the invite page answers the same whether or not the phone is in the Loop already', async () => {
    const loop = await createLoopAs(t.app, alice.cookie, { name: 'Open House' });
    const invite = (await as(alice.cookie).send('POST', `/api/loops/${loop.id}/invite`, {})).json<{ inviteUrl: string }>();
    const code = invite.inviteUrl.split('/').at(-1);
    const join = (phoneNumber: string) =>
      t.app.inject({ method: 'POST', url: `/api/invites/${code}/join`, payload: { firstName: 'x', lastName: 'y', phoneNumber } });
    const member = uniquePhone();
    await addActiveMemberAs(t.app, alice.cookie, loop.id, { phoneNumber: member });
    const already = await join(member);
    const fresh = await join(uniquePhone());
    expect(already.statusCode).toBe(200);
    expect(already.json()).toEqual(fresh.json());
  });
});
