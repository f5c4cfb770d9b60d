import { and, count, eq, ne } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { members } from '../db/schema';
import { findRecipients } from './recipients';
import { nonGsm7Characters, smsSegments } from './segments';

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
  /** The characters that made it UCS-2 (an emoji, a curly quote): 70 characters a segment, not 160. */
  ucs2Characters: string[];
  /** recipients x segments: what the carrier counts. */
  texts: number;
}

/**
 * Who a text to every member of the Loop would reach now, and how many segments that costs.
 * `exceptUserIds`: members it is not sent to (the sender of a group message), nor counted as unreached.
 */
export async function loopTextCost(
  db: DbOrTx,
  loopId: number,
  body: string,
  { exceptUserIds }: { exceptUserIds?: ReadonlySet<number> } = {},
): Promise<LoopTextCost> {
  const reachable = await findRecipients(db, [loopId]);
  const recipients = reachable.filter((r) => !exceptUserIds?.has(r.userId));
  const [all] = await db
    .select({ n: count() })
    .from(members)
    .where(and(eq(members.loopId, loopId), ne(members.status, 'declined')));
  const segments = smsSegments(body);
  return {
    recipients: recipients.length,
    recipientNames: recipients.map((r) => r.firstName),
    notReached: Math.max(0, (all?.n ?? 0) - reachable.length),
    segments,
    ucs2Characters: nonGsm7Characters(body),
    texts: recipients.length * segments,
  };
}
