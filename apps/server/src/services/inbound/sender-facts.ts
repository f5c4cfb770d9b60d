import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/client';
import { loops, members, phoneOptOuts, users } from '../../db/schema';
import { membershipIsActive } from '../memberships/membership-is-active';
import type { LoopRef } from './route-text';

/** What handling a text needs to know about its sender before it writes anything. */
export interface SenderFacts {
  user: typeof users.$inferSelect | undefined;
  optedOut: boolean;
  /** The Loops whose membership is active, by name: the ones a text can go to. */
  loops: LoopRef[];
}

/**
 * The sender's facts, read before its texts are handled and valid until one of them changes
 * them (a keyword or a consent answer): processInbound then sets `facts` to undefined and reads
 * them itself for the rest. Held per sender by the worker (decision 0016).
 */
export interface KnownSender {
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
    })
    .from(members)
    .innerJoin(loops, eq(loops.id, members.loopId))
    .innerJoin(owner, eq(owner.id, loops.creatorId))
    .where(
      and(
        inArray(members.userId, userIds),
        membershipIsActive,
        scope === null ? undefined : inArray(loops.id, scope.length > 0 ? scope : [-1]),
      ),
    )
    .orderBy(asc(loops.name), asc(loops.id));
  for (const { userId, ...loop } of rows) byUser.get(userId)?.push(loop);
  return byUser;
}

/** The facts of many senders (E.164 phones) in three statements, whatever their number. */
export async function readSenderFacts(db: DbOrTx, phones: string[]): Promise<Map<string, SenderFacts>> {
  const facts = new Map<string, SenderFacts>();
  if (phones.length === 0) return facts;
  const found = await db.select().from(users).where(inArray(users.phoneNumber, phones));
  const optedOut = new Set(
    (await db.select({ phone: phoneOptOuts.phoneNumber }).from(phoneOptOuts).where(inArray(phoneOptOuts.phoneNumber, phones))).map(
      (r) => r.phone,
    ),
  );
  const loopsOf = await activeLoopsOf(
    db,
    found.map((u) => u.id),
  );
  const userOf = new Map(found.map((u) => [u.phoneNumber, u]));
  for (const phone of phones) {
    const user = userOf.get(phone);
    facts.set(phone, { user, optedOut: optedOut.has(phone), loops: user ? (loopsOf.get(user.id) ?? []) : [] });
  }
  return facts;
}
