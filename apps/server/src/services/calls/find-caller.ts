import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { isOptedOut } from '../../messaging/opt-outs';
import type { LoopRef } from '../inbound/route-text';
import { activeLoopsOf } from '../inbound/sender-facts';

export interface Caller {
  userId: number;
  firstName: string;
  hasPin: boolean;
  /** The phone said STOP: it hears only how to START. */
  optedOut: boolean;
  /** Its active Loops (a pending invitation gives nothing away), by name. */
  loops: LoopRef[];
}

/** The person a calling number belongs to, with their active Loops; null for a number Loop does not know. */
export async function findCaller(db: DbOrTx, phoneNumber: string): Promise<Caller | null> {
  const [user] = await db
    .select({ id: users.id, firstName: users.firstName, pinHash: users.phonePinHash })
    .from(users)
    .where(eq(users.phoneNumber, phoneNumber));
  if (!user) return null;
  const loops = (await activeLoopsOf(db, [user.id])).get(user.id) ?? [];
  return {
    userId: user.id,
    firstName: user.firstName,
    hasPin: user.pinHash !== null,
    optedOut: await isOptedOut(db, phoneNumber),
    loops,
  };
}
