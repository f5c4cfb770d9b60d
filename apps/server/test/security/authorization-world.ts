import { loops, members, messages, newsletters, users } from '../../src/db/schema';
import { randomToken } from '../../src/lib/tokens';
import { createInvite } from '../../src/services/invites/create-invite';
import { signUp, uniquePhone, type TestContext } from '../helpers/app';
import { insertUpdate } from '../helpers/loops';
import { JPEG } from '../helpers/messaging';
import { allRows, digestMany, tableRows } from './db-digest';

/**
 * Two Loops, A and B, each with an owner and a member who sign in, a member who only texts, three
 * updates (one with a photo), an invite, a draft and a sent newsletter and an inbound text; plus a
 * stranger and staff. Every value a person could leak is a random tag, so a response that shows
 * one has shown something of that Loop.
 */
export type LoopKey = 'A' | 'B';
export type Actor = 'signedOut' | 'stranger' | 'staff' | 'ownerA' | 'memberA' | 'ownerB' | 'memberB';
export const ACTORS: Actor[] = ['signedOut', 'stranger', 'staff', 'ownerA', 'memberA', 'ownerB', 'memberB'];
export type Person = 'owner' | 'member' | 'extra';
type Role = 'owner' | 'member' | 'staff';

/**
 * Who may see a secret of a Loop: anyone in it, its owner (and staff), or staff only; `self` sees
 * their own phone number and address, which other members of the Loop may not (decision 0054).
 */
type Audience = 'loop' | 'manage' | 'staff';
type Secret = { value: string; audience: Audience; self?: Actor };

export interface BuiltLoop {
  id: number;
  memberIds: Record<Person, number>;
  phones: Record<Person, string>;
  updateIds: Record<Person, number>;
  photoKey: string;
  draftId: number;
  draftUrlId: string;
  sentId: number;
  secrets: Secret[];
}

export const NOW = new Date('2026-03-01T12:00:00Z');
const CREATED = new Date('2026-01-01T00:00:00Z');
const SENT_END = new Date('2026-01-15T00:00:00Z');

const tag = (prefix: string) => `${prefix}${randomToken(9).replace(/[^A-Za-z0-9]/g, 'x')}`;

interface Account {
  id: number;
  cookie: string;
  phone: string;
  secrets: string[];
  /** The phone number and e-mail address: the owner's and staff's to see, and the person's own. */
  contact: string[];
}

export async function createWorld(t: TestContext) {
  const db = t.testDb.database.db;
  const storage = t.app.ctx.storage;
  const account = async (name: string, overrides: Record<string, unknown> = {}): Promise<Account> => {
    const firstName = tag(name);
    const signed = await signUp(t.app, { firstName, lastName: tag('Surname'), ...overrides });
    const { account: a } = signed;
    return {
      id: signed.user.id,
      cookie: signed.cookie,
      phone: a.phoneNumber,
      secrets: [firstName, a.lastName],
      contact: [a.phoneNumber, a.email],
    };
  };
  const accounts = {
    stranger: await account('Stranger'),
    staff: await account('Staff', { email: 'staff@example.com' }),
    ownerA: await account('Ownera'),
    memberA: await account('Membera'),
    ownerB: await account('Ownerb'),
    memberB: await account('Memberb'),
  };

  async function buildLoop(key: LoopKey): Promise<BuiltLoop> {
    const owner = accounts[`owner${key}`];
    const member = accounts[`member${key}`];
    const [extra] = await db
      .insert(users)
      .values({ firstName: tag('Extra'), lastName: tag('Texter'), phoneNumber: uniquePhone() })
      .returning();
    if (!extra) throw new Error('no user');
    const [loop] = await db
      .insert(loops)
      .values({ name: tag(`Loop${key}`), context: tag('Context'), vibe: ['family'], creatorId: owner.id, createdAt: CREATED })
      .returning();
    if (!loop) throw new Error('no loop');
    const memberRows = await db
      .insert(members)
      .values([owner.id, member.id, extra.id].map((userId) => ({ loopId: loop.id, userId, status: 'active' as const, createdAt: CREATED })))
      .returning();
    const memberId = (userId: number) => memberRows.find((m) => m.userId === userId)?.id ?? 0;
    const photoKey = await storage.put(JPEG);
    const later = new Date('2026-02-01T00:00:00Z');
    const contents = { owner: tag('Ownernews'), member: tag('Membernews'), extra: tag('Extranews') };
    const ownerUpdate = await insertUpdate(db, loop.id, owner.id, contents.owner, [photoKey], later);
    const memberUpdate = await insertUpdate(db, loop.id, member.id, contents.member, [], later);
    const extraUpdate = await insertUpdate(db, loop.id, extra.id, contents.extra, [], later);
    const invite = await createInvite(db, { loopId: loop.id, createdById: owner.id, now: NOW });
    const letter = (status: 'draft' | 'sent') => ({
      loopId: loop.id,
      status,
      urlId: randomToken(),
      title: tag('Title'),
      content: tag('Letter'),
      periodStart: CREATED,
      periodEnd: status === 'sent' ? SENT_END : NOW,
      createdAt: SENT_END,
      sentAt: status === 'sent' ? SENT_END : null,
    });
    const [draft, sent] = await db
      .insert(newsletters)
      .values([letter('draft'), letter('sent')])
      .returning();
    if (!draft || !sent) throw new Error('no newsletter');
    const inboundText = tag('Sms');
    await db.insert(messages).values({
      direction: 'inbound',
      channel: 'sms',
      kind: 'inbound',
      toAddress: '+15005550006',
      fromAddress: member.phone,
      body: inboundText,
      status: 'processed',
      loopId: loop.id,
      userId: member.id,
    });
    const inLoop = [
      loop.name,
      loop.context ?? '',
      extra.firstName,
      extra.lastName,
      ...owner.secrets,
      ...member.secrets,
      ...Object.values(contents),
      photoKey,
      sent.urlId,
      sent.title,
      sent.content,
      inboundText,
    ];
    return {
      id: loop.id,
      memberIds: { owner: memberId(owner.id), member: memberId(member.id), extra: memberId(extra.id) },
      phones: { owner: owner.phone, member: member.phone, extra: extra.phoneNumber },
      updateIds: { owner: ownerUpdate.id, member: memberUpdate.id, extra: extraUpdate.id },
      photoKey,
      draftId: draft.id,
      draftUrlId: draft.urlId,
      sentId: sent.id,
      secrets: [
        ...inLoop.map((value) => ({ value, audience: 'loop' as const })),
        { value: extra.phoneNumber, audience: 'manage' },
        ...owner.contact.map((value) => ({ value, audience: 'manage' as const, self: `owner${key}` as const })),
        ...member.contact.map((value) => ({ value, audience: 'manage' as const, self: `member${key}` as const })),
        { value: invite.code, audience: 'manage' },
        // A draft is the owner's and staff's to read before it goes (decision 0040).
        { value: draft.urlId, audience: 'manage' },
        { value: draft.title, audience: 'manage' },
        { value: draft.content, audience: 'manage' },
      ],
    };
  }

  const built: Record<LoopKey, BuiltLoop> = { A: await buildLoop('A'), B: await buildLoop('B') };

  return {
    accounts,
    loops: built,
    cookie: (actor: Actor) => (actor === 'signedOut' ? undefined : accounts[actor].cookie),
    userId: (actor: Exclude<Actor, 'signedOut'>) => accounts[actor].id,
    /** After a permitted change, the Loop is built anew so later cases start from the same shape. */
    rebuild: async (key: LoopKey) => {
      built[key] = await buildLoop(key);
    },
    /**
     * Digests of every row a request could change (sessions aside: reads touch lastSeenAt), and of
     * each Loop's rows: the Loop, its members and their accounts, updates, photos, invites,
     * newsletters, texts.
     */
    digests: () => digestMany(db, { all: allRows({ except: ['sessions'] }), A: loopRows(built.A.id), B: loopRows(built.B.id) }),
  };
}
export type World = Awaited<ReturnType<typeof createWorld>>;

/** The role an actor has in a Loop, or null: the same rules as services/loop-access.ts. */
export function roleIn(actor: Actor, key: LoopKey): Role | null {
  if (actor === 'staff') return 'staff';
  if (actor === `owner${key}`) return 'owner';
  if (actor === `member${key}`) return 'member';
  return null;
}

/** The secrets of both Loops that this actor may not see. */
export function hiddenFrom(world: World, actor: Actor): string[] {
  const hidden: string[] = [];
  for (const key of ['A', 'B'] as const) {
    const role = roleIn(actor, key);
    for (const secret of world.loops[key].secrets) {
      const visible =
        secret.audience === 'loop' ? role !== null : secret.audience === 'manage' ? role === 'owner' || role === 'staff' : role === 'staff';
      if (!visible && secret.self !== actor) hidden.push(secret.value);
    }
  }
  return hidden;
}

function loopRows(loopId: number): string[] {
  const id = Number(loopId);
  return [
    tableRows('loops', `t.id = ${id}`),
    ...['members', 'updates', 'invites', 'newsletters', 'messages'].map((table) => tableRows(table, `t.loop_id = ${id}`)),
    tableRows('media', `t.update_id in (select id from updates where loop_id = ${id})`),
    tableRows('users', `t.id in (select user_id from members where loop_id = ${id})`),
  ];
}
