import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import { PERMANENT_ERROR_CODES } from './provider';
import { optOutPhone } from './opt-outs';

type OutboundStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'undelivered' | 'failed';

// Twilio's statuses in our words; callbacks can arrive out of order, so a status only moves forward.
const FROM_TWILIO: Record<string, OutboundStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'sending',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
};
const RANK: Record<OutboundStatus, number> = { queued: 0, sending: 1, sent: 2, delivered: 3, undelivered: 3, failed: 3 };

/**
 * Records a delivery status Twilio reported for one of our texts. Returns false when the
 * MessageSid is not ours or the status is not one we track.
 */
export async function recordStatus(
  db: Db,
  input: { providerMessageId: string; status: string; errorCode?: string; now: Date },
): Promise<boolean> {
  // Own keys only: "__proto__" or "constructor" from a caller must not look like a status.
  const key = input.status.toLowerCase();
  const status = Object.hasOwn(FROM_TWILIO, key) ? FROM_TWILIO[key] : undefined;
  if (!status) return false;
  const earlier = (Object.keys(RANK) as OutboundStatus[]).filter((s) => RANK[s] < RANK[status]);
  const error = input.errorCode ? `Twilio error ${input.errorCode} (${status})` : undefined;
  const [row] = await db
    .update(messages)
    .set({ status, ...(error ? { error } : {}), updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.providerMessageId, input.providerMessageId),
        eq(messages.direction, 'outbound'),
        inArray(messages.status, earlier),
      ),
    )
    .returning({ toAddress: messages.toAddress });
  if (row && Number(input.errorCode) === PERMANENT_ERROR_CODES.optedOut) {
    await optOutPhone(db, row.toAddress, `twilio:${input.errorCode}`, input.now);
  }
  return row !== undefined;
}
