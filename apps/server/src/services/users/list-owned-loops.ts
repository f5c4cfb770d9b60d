import { and, asc, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm';
import type { OwnedLoop } from '@loop/shared/account-data';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { membershipIsActive } from '../members/membership-is-active';

/**
 * The Loops a person runs, as the "Delete my account" dialog lists them, each with the active
 * members with an account who could run it instead (deleteAccount checks the same).
 */
export async function listOwnedLoops(db: DbOrTx, userId: number): Promise<OwnedLoop[]> {
  const owned = await db
    .select({ id: loops.id, name: loops.name, memberCount: loops.memberCount })
    .from(loops)
    .where(eq(loops.creatorId, userId))
    .orderBy(asc(sql`lower(${loops.name})`), asc(loops.id));
  if (owned.length === 0) return [];
  const heirs = await db
    .select({ loopId: members.loopId, userId: users.id, name: sql<string>`${users.firstName} || ' ' || ${users.lastName}` })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        inArray(
          members.loopId,
          owned.map((l) => l.id),
        ),
        ne(members.userId, userId),
        membershipIsActive,
        isNotNull(users.passwordHash),
      ),
    )
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id));
  return owned.map((loop) => ({
    ...loop,
    candidates: heirs.filter((h) => h.loopId === loop.id).map(({ userId: heir, name }) => ({ userId: heir, name })),
  }));
}
