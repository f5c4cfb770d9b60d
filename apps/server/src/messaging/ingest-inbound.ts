import type { DbOrTx } from '../db/client';
import { messages } from '../db/schema';
import { AppError } from '../errors';
import { wakeMessageWorker } from './worker-signal';

/** Twilio's form parameters of one inbound text (also what the Phone Simulator builds). */
export type InboundParams = Record<string, string>;

/**
 * Stores an inbound text once per MessageSid and leaves the rest to the message worker: the row
 * is the job, so nothing is lost if the process stops right after. Twilio's retries (and five
 * copies at once) find the row there and change nothing. Returns whether this call stored it.
 */
export async function ingestInbound(db: DbOrTx, params: InboundParams, now: Date): Promise<{ id: number | null; stored: boolean }> {
  const sid = params.MessageSid ?? params.SmsMessageSid;
  const from = params.From;
  if (!sid || !from) throw new AppError('bad_request', 'MessageSid and From are required.');
  const [row] = await db
    .insert(messages)
    .values({
      direction: 'inbound',
      channel: from.startsWith('whatsapp:') ? 'whatsapp' : 'sms',
      kind: 'inbound',
      fromAddress: from,
      toAddress: params.To ?? '',
      body: params.Body ?? '',
      status: 'received',
      providerMessageId: sid,
      raw: params,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing({ target: messages.providerMessageId })
    .returning({ id: messages.id });
  if (row) wakeMessageWorker('inbound');
  return { id: row?.id ?? null, stored: row !== undefined };
}
