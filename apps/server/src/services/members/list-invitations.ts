import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Invitation } from '@loop/shared/invitations';
import type { DbOrTx } from '../../db/client';
import { loops, members, users } from '../../db/schema';
import { INVITATION_LIFETIME_MS, membershipIsConfirmable } from './membership-is-active';

const inviter = alias(users, 'inviter');

/**
 * The invitations My Loops offers to accept or decline (decision 0035): the person's pending
 * memberships whose invitation text went out less than 7 days ago, newest first, and only when
 * they proved their phone with a texted code (an account made before codes answers by text).
 */
export async function listInvitations(db: DbOrTx, userId: number, now: Date): Promise<Invitation[]> {
  const rows = await db
    .select({
      id: members.id,
      loop: { id: loops.id, name: loops.name },
      inviterFirstName: inviter.firstName,
      inviterLastName: inviter.lastName,
      inviterPhoneEnd: sql<string | null>`case when ${inviter.phoneProvenAt} is not null then right(${inviter.phoneNumber}, 4) end`,
      invitedAt: members.invitedAt,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .leftJoin(inviter, eq(inviter.id, members.invitedById))
    .where(
      and(eq(members.userId, userId), isNotNull(users.phoneProvenAt), membershipIsConfirmable(now), eq(members.invitationWithheld, false)),
    )
    .orderBy(desc(members.invitedAt), desc(members.id));
  return rows.map((row) => {
    const invitedAt = row.invitedAt ?? now;
    return {
      id: row.id,
      loop: row.loop,
      invitedBy:
        row.inviterFirstName === null
          ? null
          : { firstName: row.inviterFirstName, lastName: row.inviterLastName ?? '', phoneEnd: row.inviterPhoneEnd },
      invitedAt: invitedAt.toISOString(),
      expiresAt: new Date(invitedAt.getTime() + INVITATION_LIFETIME_MS).toISOString(),
    };
  });
}
