import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { SimulatorPhone } from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { loops, members, phoneOptOuts, users } from '../../db/schema';

const MAX_ROWS = 2000;

export interface SimulatorViewer {
  id: number;
  isPrivileged: boolean;
}

/**
 * The phones a person may play in the simulator (decision 0015): their own (with its invitations);
 * the phones of text-only members (no account: pending or not) of the Loops they own; never another
 * account holder's.
 * Staff may play every member's phone. Each phone lists only the Loops the viewer may see it in:
 * their own Loops for their own phone, the Loops they own for anyone else's.
 */
export async function listSimulatorPhones(db: Db, viewer: SimulatorViewer, options: { phoneNumber?: string } = {}): Promise<SimulatorPhone[]> {
  const conditions: (SQL | undefined)[] = [];
  if (!viewer.isPrivileged) {
    conditions.push(
      or(
        // Their own phone in every Loop it belongs to or is invited to: an account holder added
        // after sign-up says yes by texting YES from it.
        eq(users.id, viewer.id),
        and(eq(loops.creatorId, viewer.id), isNull(users.passwordHash)),
      ),
    );
  }
  if (options.phoneNumber) conditions.push(eq(users.phoneNumber, options.phoneNumber));
  const rows = await db
    .select({
      userId: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      phoneNumber: users.phoneNumber,
      messagingPreference: users.messagingPreference,
      optedOut: sql<boolean>`exists (select 1 from ${phoneOptOuts} where ${phoneOptOuts.phoneNumber} = ${users.phoneNumber})`,
      loopId: loops.id,
      loopName: loops.name,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(and(...conditions))
    .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id), asc(loops.name))
    .limit(MAX_ROWS);

  const phones = new Map<number, SimulatorPhone>();
  for (const row of rows) {
    let phone = phones.get(row.userId);
    if (!phone) {
      const { loopId: _id, loopName: _name, ...person } = row;
      phone = { ...person, loops: [] };
      phones.set(row.userId, phone);
    }
    phone.loops.push({ id: row.loopId, name: row.loopName });
  }
  return [...phones.values()];
}

/**
 * The Loops whose messages a viewer sees on a phone, and the only ones a text they send from it may
 * reach: null (all) for staff and for their own phone, else the Loops they own.
 */
export async function simulatorScopeFor(db: Db, viewer: SimulatorViewer, phoneUserId: number): Promise<number[] | null> {
  if (viewer.isPrivileged || phoneUserId === viewer.id) return null;
  const owned = await db.select({ id: loops.id }).from(loops).where(eq(loops.creatorId, viewer.id));
  return owned.map((l) => l.id);
}
