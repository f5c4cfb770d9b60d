import { and, asc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { SimulatorPhone } from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { loops, members, phoneOptOuts, users } from '../../db/schema';
import { phonesVisibleTo, type SimulatorViewer } from '../simulator-access';

const MAX_ROWS = 2000;

/**
 * The phones a person may play in the simulator, each with the Loops they may see it in
 * (services/simulator-access.ts says which).
 */
export async function listSimulatorPhones(
  db: Db,
  viewer: SimulatorViewer,
  options: { phoneNumber?: string } = {},
): Promise<SimulatorPhone[]> {
  const conditions: (SQL | undefined)[] = [phonesVisibleTo(viewer)];
  if (options.phoneNumber) conditions.push(eq(users.phoneNumber, options.phoneNumber));
  // Someone else's phone shows as the viewer's Loop has them, what its owner typed (decision 0031).
  const own = viewer.isStaff ? sql<boolean>`true` : sql<boolean>`${users.id} = ${viewer.id}`;
  const shown = <T>(typed: AnyColumn, person: AnyColumn) => sql<T>`case when ${own} then ${person} else coalesce(${typed}, ${person}) end`;
  const firstName = shown<string>(members.firstName, users.firstName);
  const lastName = shown<string>(members.lastName, users.lastName);
  const rows = await db
    .select({
      userId: users.id,
      firstName,
      lastName,
      phoneNumber: users.phoneNumber,
      messagingPreference: shown<SimulatorPhone['messagingPreference']>(members.messagingPreference, users.messagingPreference),
      optedOut: sql<boolean>`exists (select 1 from ${phoneOptOuts} where ${phoneOptOuts.phoneNumber} = ${users.phoneNumber})`,
      loopId: loops.id,
      loopName: loops.name,
      pending: sql<boolean>`${members.status} = 'pending'`,
    })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .innerJoin(loops, eq(loops.id, members.loopId))
    .where(and(...conditions))
    .orderBy(asc(firstName), asc(lastName), asc(users.id), asc(loops.name))
    .limit(MAX_ROWS);

  const phones = new Map<number, SimulatorPhone>();
  for (const row of rows) {
    let phone = phones.get(row.userId);
    if (!phone) {
      const { loopId: _id, loopName: _name, pending: _pending, ...person } = row;
      phone = { ...person, loops: [] };
      phones.set(row.userId, phone);
    }
    phone.loops.push({ id: row.loopId, name: row.loopName, ...(row.pending ? { pending: true } : {}) });
  }
  return [...phones.values()];
}
