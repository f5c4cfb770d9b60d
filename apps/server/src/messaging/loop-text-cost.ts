import { and, count, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { members } from '../db/schema';
import { findRecipients } from './recipients';
import { smsSegments } from './segments';

/** What a text to a whole Loop costs, asked before it is sent (decision 0042). */
export interface LoopTextCost {
  /** Members the one rule (recipients.ts) lets Loop text now. */
  recipients: number;
  /** Their first names, in the order they would be texted. */
  recipientNames: string[];
  /** Members it will not reach now (waiting for their YES, opted out, unable to receive texts, or the Loop is paused). */
  notReached: number;
  /** SMS segments of one text (segments.ts). */
  segments: number;
  /** recipients x segments: what the carrier counts. */
  texts: number;
}

/** Who a text to every member of the Loop would reach now, and how many segments that costs. */
export async function loopTextCost(db: DbOrTx, loopId: number, body: string): Promise<LoopTextCost> {
  const recipients = await findRecipients(db, [loopId]);
  const [all] = await db
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.loopId, loopId), ne(members.status, 'declined')));
  const segments = smsSegments(body);
  return {
    recipients: recipients.length,
    recipientNames: recipients.map((r) => r.firstName),
    notReached: Math.max(0, (all?.n ?? 0) - recipients.length),
    segments,
    texts: recipients.length * segments,
  };
}
