import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { recordset } from '../db/recordset';
import { messages } from '../db/schema';
import { AppError } from '../errors';
import { wakeMessageWorker } from './worker-signal';

/** Twilio's form parameters of one inbound text (also what the Phone Simulator builds). */
export type InboundParams = Record<string, string>;

/** One inbound text as it is stored: a `messages` row in status `received`. */
export interface InboundRow {
  sid: string;
  channel: 'sms' | 'whatsapp';
  fromAddress: string;
  toAddress: string;
  body: string;
  raw: InboundParams;
  createdAt: Date;
}

/** Checks the parameters a stored text needs (a 400 otherwise) and shapes its row. */
export function inboundRow(params: InboundParams, now: Date): InboundRow {
  const sid = params.MessageSid ?? params.SmsMessageSid;
  const from = params.From;
  if (!sid || !from) throw new AppError('bad_request', 'MessageSid and From are required.');
  return {
    sid,
    channel: from.startsWith('whatsapp:') ? 'whatsapp' : 'sms',
    fromAddress: from,
    toAddress: params.To ?? '',
    body: params.Body ?? '',
    raw: params,
    createdAt: now,
  };
}

/**
 * Stores inbound texts in one statement (one commit however many there are), once per
 * MessageSid: a sid that is already stored, or that comes twice in `rows`, adds nothing.
 * Returns the ids of the rows this call stored, by sid, and wakes the message worker for them.
 *
 * The rows travel as one JSON parameter, so the statement text never changes (PostgreSQL plans
 * it once per connection) and the query builder does no per-row work on the hot path.
 */
export async function insertInbound(db: DbOrTx, rows: readonly InboundRow[]): Promise<Map<string, number>> {
  const stored = new Map<string, number>();
  if (rows.length === 0) return stored;
  const batch = rows.map((r) => ({
    channel: r.channel,
    from_address: r.fromAddress,
    to_address: r.toAddress,
    body: r.body,
    sid: r.sid,
    raw: r.raw,
    created_at: r.createdAt.toISOString(),
  }));
  const result = await db.execute(sql`
    insert into ${messages} (direction, channel, kind, from_address, to_address, body, status, provider_message_id, raw, created_at, updated_at)
    select 'inbound', r.channel, 'inbound', r.from_address, r.to_address, r.body, 'received', r.sid, r.raw, r.created_at, r.created_at
    from ${recordset('r', { channel: 'message_channel', from_address: 'text', to_address: 'text', body: 'text', sid: 'text', raw: 'jsonb', created_at: 'timestamptz' }, batch)}
    on conflict (provider_message_id) do nothing
    returning id, provider_message_id`);
  // node-postgres and PGlite both answer with { rows }; PGlite may give a bigint id as a string.
  for (const row of (result as { rows: { id: number | string; provider_message_id: string }[] }).rows) {
    stored.set(row.provider_message_id, Number(row.id));
  }
  if (stored.size > 0) wakeMessageWorker('inbound');
  return stored;
}

/**
 * Stores an inbound text once per MessageSid and leaves the rest to the message worker: the row
 * is the job, so nothing is lost if the process stops right after. Twilio's retries (and five
 * copies at once) find the row there and change nothing. Returns whether this call stored it.
 * The webhook stores through an InboundBatcher instead, which shares one statement among the
 * texts that arrive together.
 */
export async function ingestInbound(db: DbOrTx, params: InboundParams, now: Date): Promise<{ id: number | null; stored: boolean }> {
  const row = inboundRow(params, now);
  const id = (await insertInbound(db, [row])).get(row.sid) ?? null;
  return { id, stored: id !== null };
}
