import { and, eq, gt } from 'drizzle-orm';
import type { DbOrTx } from '../../../../db/client';
import { messages } from '../../../../db/schema';
import { DAY_MS } from '../../../../lib/clock';
import type { Reply } from '../../inbound-text';

/**
 * Whether this phone was told it opted out (the confirmation or the rejoin hint) in the last day,
 * or, given `reply`, was sent that same reply.
 */
export async function toldRecently(tx: DbOrTx, phone: string, now: Date, reply?: Reply): Promise<boolean> {
  const what = reply ? and(eq(messages.kind, reply.kind), eq(messages.body, reply.body)) : eq(messages.kind, 'opt_out_notice');
  const [told] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.toAddress, phone), what, gt(messages.createdAt, new Date(now.getTime() - DAY_MS))))
    .limit(1);
  return told !== undefined;
}
