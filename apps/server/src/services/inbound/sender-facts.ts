import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { consentQuestions, erasureRequests, loops, members, newsletters, users } from '../../db/schema';
import { optedOutAmong } from '../../messaging/opt-outs';
import { membershipIsActive, membershipIsConfirmable } from '../members/membership-is-active';
import type { LoopCadence } from '../../messaging/text-frequency';
import type { LoopRef } from './route-text';

/** An invitation a YES could confirm now: pending, not expired. */
export interface OpenInvitation {
  membershipId: number;
  loopId: number;
  name: string;
  /** Who invited them (the account that added them or whose link was used), else the Loop's owner. */
  inviterName: string;
  /**
   * The last four digits of that inviter's phone, when a texted code proved it (decision 0053):
   * what tells two lookalike invitations apart, since an impostor can copy a name but not a phone.
   */
  inviterPhoneEnd: string | null;
  /** Who runs the Loop. */
  ownerName: string;
  /** No invitation text went out (the phone had opted out): only a YES to this Loop confirms it. */
  withheld: boolean;
  /** How often the Loop texts, which the YES confirmation says (textFrequency). */
  reminderSchedule: readonly unknown[];
  frequency: LoopCadence['frequency'];
}

/** The open "which Loop?" question: its choices in the order offered, and until when a number answers it. */
export interface OpenQuestion {
  membershipIds: number[];
  expiresAt: Date;
}

/** What handling a text needs to know about its sender before it writes anything. */
export interface SenderFacts {
  user: typeof users.$inferSelect | undefined;
  optedOut: boolean;
  /** The Loops whose membership is active, by name: the ones a text can go to. */
  loops: LoopRef[];
  /** Open invitations, by Loop name then id. */
  invitations: OpenInvitation[];
  question: OpenQuestion | null;
  /** A DELETE waiting for its code (decision 0045), open or not: decideInbound checks the time. */
  erasure: { codeHash: string; expiresAt: Date } | null;
}

/**
 * The sender's facts, read before its texts are handled and valid until one of them changes
 * them (a keyword or a consent answer): handleInbound then sets `facts` to undefined and reads
 * them itself for the rest. Held per sender by the worker (decision 0016).
 */
export interface HeldFacts {
  facts: SenderFacts | undefined;
}

/**
 * The Loops each of these users' texts may go to (only active memberships, decision 0015),
 * ordered by name then id, optionally within `scope` (the simulator's viewer's own Loops).
 */
export async function activeLoopsOf(db: DbOrTx, userIds: number[], scope: number[] | null = null): Promise<Map<number, LoopRef[]>> {
  const byUser = new Map<number, LoopRef[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const owner = alias(users, 'owner');
  const rows = await db
    .select({
      userId: members.userId,
      id: loops.id,
      name: loops.name,
      ownerName: sql<string>`${owner.firstName} || ' ' || ${owner.lastName}`,
      // The Loop's last sent newsletter, which a reaction answers (decision 0056).
      lastIssue: sql<{
        id: number;
        sentAt: string;
      } | null>`(select json_build_object('id', ${newsletters.id}, 'sentAt', ${newsletters.sentAt})
        from ${newsletters} where ${newsletters.loopId} = ${loops.id} and ${newsletters.status} = 'sent' and ${newsletters.kind} = 'newsletter'
        order by ${newsletters.sentAt} desc limit 1)`,
    })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .innerJoin(owner, eq(owner.id, loops.creatorId))
    .where(and(inArray(members.userId, userIds), membershipIsActive, inScope(scope)))
    .orderBy(asc(loops.name), asc(loops.id));
  for (const { userId, lastIssue, ...loop } of rows) {
    byUser.get(userId)?.push({ ...loop, lastIssue: lastIssue ? { id: Number(lastIssue.id), sentAt: new Date(lastIssue.sentAt) } : null });
  }
  return byUser;
}

/** Each user's open invitations (decision 0033), by Loop name then id, optionally within `scope`. */
async function invitationsOf(db: DbOrTx, userIds: number[], now: Date, scope: number[] | null): Promise<Map<number, OpenInvitation[]>> {
  const byUser = new Map<number, OpenInvitation[]>(userIds.map((id) => [id, []]));
  if (userIds.length === 0) return byUser;
  const owner = alias(users, 'owner');
  const inviter = alias(users, 'inviter');
  const rows = await db
    .select({
      userId: members.userId,
      membershipId: members.id,
      loopId: loops.id,
      name: loops.name,
      inviterName: sql<string>`coalesce(${inviter.firstName} || ' ' || ${inviter.lastName}, ${owner.firstName} || ' ' || ${owner.lastName})`,
      inviterPhoneEnd: sql<string | null>`right(case when ${inviter.id} is not null
        then (case when ${inviter.phoneProvenAt} is not null then ${inviter.phoneNumber} end)
        else (case when ${owner.phoneProvenAt} is not null then ${owner.phoneNumber} end) end, 4)`,
      ownerName: sql<string>`${owner.firstName} || ' ' || ${owner.lastName}`,
      withheld: members.invitationWithheld,
      reminderSchedule: loops.reminderSchedule,
      frequency: loops.frequency,
    })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .innerJoin(owner, eq(owner.id, loops.creatorId))
    .leftJoin(inviter, eq(inviter.id, members.invitedById))
    .where(and(inArray(members.userId, userIds), membershipIsConfirmable(now), inScope(scope)))
    .orderBy(asc(sql`lower(${loops.name})`), asc(loops.id));
  for (const { userId, ...invitation } of rows) byUser.get(userId)?.push(invitation);
  return byUser;
}

function inScope(scope: number[] | null) {
  return scope === null ? undefined : inArray(loops.id, scope.length > 0 ? scope : [-1]);
}

/**
 * The facts of many senders (E.164 phones) in seven statements, whatever their number; within
 * `scope` when a simulator viewer plays someone else's phone.
 */
export async function readSenderFacts(
  db: DbOrTx,
  phones: string[],
  now: Date,
  scope: number[] | null = null,
): Promise<Map<string, SenderFacts>> {
  const facts = new Map<string, SenderFacts>();
  if (phones.length === 0) return facts;
  const found = await db.select().from(users).where(inArray(users.phoneNumber, phones));
  const optedOut = await optedOutAmong(db, phones);
  const questions = new Map(
    (await db.select().from(consentQuestions).where(inArray(consentQuestions.phoneNumber, phones))).map((q) => [q.phoneNumber, q]),
  );
  const erasures = new Map(
    (await db.select().from(erasureRequests).where(inArray(erasureRequests.phoneNumber, phones))).map((e) => [e.phoneNumber, e]),
  );
  const userIds = found.map((u) => u.id);
  const loopsOf = await activeLoopsOf(db, userIds, scope);
  const invitationsOfUser = await invitationsOf(db, userIds, now, scope);
  const userOf = new Map(found.map((u) => [u.phoneNumber, u]));
  for (const phone of phones) {
    const user = userOf.get(phone);
    const question = questions.get(phone);
    const erasure = erasures.get(phone);
    facts.set(phone, {
      user,
      optedOut: optedOut.has(phone),
      loops: user ? (loopsOf.get(user.id) ?? []) : [],
      invitations: user ? (invitationsOfUser.get(user.id) ?? []) : [],
      question: question ? { membershipIds: question.membershipIds, expiresAt: question.expiresAt } : null,
      erasure: erasure ? { codeHash: erasure.codeHash, expiresAt: erasure.expiresAt } : null,
    });
  }
  return facts;
}
