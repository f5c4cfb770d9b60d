import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../db/client';
import { earlyStatuses, members, messages, undeliverablePhones, users } from '../db/schema';
import { DAY_MS } from '../lib/clock';
import { optOutPhone } from './opt-outs';
import { PERMANENT_ERROR_CODES, UNDELIVERABLE_CODES } from './provider';
import { wakeMessageWorker } from './worker-signal';

type OutboundStatus = 'queued' | 'sending' | 'sent' | 'delivered' | 'undelivered' | 'failed';

// Twilio's statuses in our words; callbacks can arrive out of order, so a status only moves forward.
// https://www.twilio.com/docs/messaging/api/message-resource#message-status-values
const FROM_TWILIO: Record<string, OutboundStatus> = {
  accepted: 'queued',
  scheduled: 'queued',
  queued: 'queued',
  sending: 'sending',
  sent: 'sent',
  delivered: 'delivered',
  read: 'delivered',
  partially_delivered: 'delivered',
  undelivered: 'undelivered',
  failed: 'failed',
  canceled: 'failed',
};
const RANK: Record<OutboundStatus, number> = { queued: 0, sending: 1, sent: 2, delivered: 3, undelivered: 3, failed: 3 };

export interface StatusInput {
  providerMessageId: string;
  status: string;
  errorCode?: string | undefined;
  now: Date;
}

/**
 * Records a delivery status Twilio reported for one of our texts, whatever the order: a callback
 * for a MessageSid we have not recorded yet (our `sent` write comes in groups, after Twilio's
 * answer) is kept in early_statuses and applied once the sid is recorded. Returns what happened.
 */
export async function recordStatus(db: Db, input: StatusInput & { maxAttempts: number }): Promise<'applied' | 'kept' | 'ignored'> {
  const status = toStatus(input.status);
  if (!status) return 'ignored';
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.providerMessageId, input.providerMessageId), eq(messages.direction, 'outbound')));
  if (row) {
    await applyStatus(db, input, input.maxAttempts);
    return 'applied';
  }
  await db.insert(earlyStatuses).values({
    providerMessageId: input.providerMessageId,
    status: input.status.toLowerCase(),
    errorCode: input.errorCode ?? null,
    receivedAt: input.now,
  });
  // The send may have been recorded while we looked: apply it now rather than at the next sweep.
  await applyEarlyStatuses(db, { maxAttempts: input.maxAttempts, now: input.now, sids: [input.providerMessageId] });
  return 'kept';
}

/**
 * Applies kept callbacks whose MessageSid is now recorded (all of them, or those of `sids`), in
 * the order they came, and forgets those older than a day that never matched (not our texts).
 */
export async function applyEarlyStatuses(db: Db, options: { maxAttempts: number; now: Date; sids?: string[] }): Promise<number> {
  const matched = await db.execute(sql`
    delete from ${earlyStatuses} e using ${messages} m
    where m.provider_message_id = e.provider_message_id
      ${
        options.sids
          ? sql`and e.provider_message_id in (${sql.join(
              options.sids.map((s) => sql`${s}`),
              sql`, `,
            )})`
          : sql``
      }
    returning e.id, e.provider_message_id, e.status, e.error_code`);
  const rows = (matched as { rows: { id: number | string; provider_message_id: string; status: string; error_code: string | null }[] })
    .rows;
  for (const row of rows.sort((a, b) => Number(a.id) - Number(b.id))) {
    await applyStatus(
      db,
      { providerMessageId: row.provider_message_id, status: row.status, errorCode: row.error_code ?? undefined, now: options.now },
      options.maxAttempts,
    );
  }
  if (!options.sids) await db.delete(earlyStatuses).where(lt(earlyStatuses.receivedAt, new Date(options.now.getTime() - DAY_MS)));
  return rows.length;
}

function toStatus(value: string): OutboundStatus | undefined {
  // Own keys only: "__proto__" or "constructor" from a caller must not look like a status.
  const key = value.toLowerCase();
  return Object.hasOwn(FROM_TWILIO, key) ? FROM_TWILIO[key] : undefined;
}

/** Moves a recorded text's status forward and acts on what its error code says about the phone. */
async function applyStatus(db: Db, input: StatusInput, maxAttempts: number): Promise<void> {
  const status = toStatus(input.status);
  if (!status) return;
  const code = Number(input.errorCode);
  const earlier = (Object.keys(RANK) as OutboundStatus[]).filter((s) => RANK[s] < RANK[status]);
  const where = and(
    eq(messages.providerMessageId, input.providerMessageId),
    eq(messages.direction, 'outbound'),
    inArray(messages.status, earlier),
  );
  if (code === PERMANENT_ERROR_CODES.notWhatsApp && (status === 'failed' || status === 'undelivered')) {
    // The number has no WhatsApp: this text goes again by SMS, and so does everything after it.
    // https://www.twilio.com/docs/api/errors/63024
    const [row] = await db
      .update(messages)
      .set({
        status: sql`case when ${messages.attempts} < ${maxAttempts} then 'queued' else 'failed' end`,
        channel: 'sms',
        fromAddress: '',
        error: `Twilio error ${code} (not a WhatsApp number): sent again by SMS`,
        nextAttemptAt: null,
        updatedAt: sql`now()`,
      })
      .where(where)
      .returning({ toAddress: messages.toAddress });
    if (row) {
      await markPhone(db, row.toAddress, code, input.now);
      wakeMessageWorker('outbound');
    }
    return;
  }
  if (code === PERMANENT_ERROR_CODES.outsideWhatsAppWindow && (status === 'failed' || status === 'undelivered')) {
    // Twilio's advice for 63016: send it again as an approved template. The window is closed, so
    // planning the text again picks the template (or SMS when none is configured).
    // https://www.twilio.com/docs/api/errors/63016
    const [row] = await db
      .update(messages)
      .set({
        status: sql`case when ${messages.attempts} < ${maxAttempts} then 'queued' else 'failed' end`,
        error: `Twilio error ${code} (outside the WhatsApp window): sent again as a template`,
        nextAttemptAt: null,
        updatedAt: sql`now()`,
      })
      .where(where)
      .returning({ toAddress: messages.toAddress });
    if (row) {
      await closeWhatsappWindow(db, row.toAddress);
      wakeMessageWorker('outbound');
    }
    return;
  }
  const error = input.errorCode ? `Twilio error ${input.errorCode} (${status})` : undefined;
  const [row] = await db
    .update(messages)
    .set({ status, ...(error ? { error } : {}), updatedAt: sql`now()` })
    .where(where)
    .returning({ toAddress: messages.toAddress });
  if (row && input.errorCode) await markPhone(db, row.toAddress, code, input.now);
}

/**
 * What a permanent Twilio error says about a phone, kept so we stop trying: 21610 (it replied
 * STOP to our sender) and 21211 (not a valid number) opt it out; 30005 (unknown number), 30006
 * (landline) and 21614 (not a mobile) mark it undeliverable until its number is edited
 * (decision 0039); 63024 (no WhatsApp) moves the person to SMS. 30003 (unreachable) and 30007
 * (filtered) are only recorded on the text: they may pass.
 */
export async function markPhone(db: DbOrTx, phone: string, code: number, now: Date): Promise<void> {
  const e164 = phone.replace(/^whatsapp:/, '');
  if (code === PERMANENT_ERROR_CODES.optedOut) await optOutPhone(db, phone, `twilio:${code}`, now);
  if (code === PERMANENT_ERROR_CODES.invalidNumber) await optOutPhone(db, phone, `twilio:${code} invalid number`, now);
  if (code === PERMANENT_ERROR_CODES.outsideWhatsAppWindow) await closeWhatsappWindow(db, phone);
  if (UNDELIVERABLE_CODES.includes(code)) {
    await db
      .insert(undeliverablePhones)
      .values({ phoneNumber: e164, errorCode: code, markedAt: now })
      .onConflictDoUpdate({ target: undeliverablePhones.phoneNumber, set: { errorCode: code, markedAt: now } });
  }
  if (code === PERMANENT_ERROR_CODES.notWhatsApp) await moveToSms(db, e164, now);
}

/**
 * Twilio says the number has no WhatsApp account (63024): the person's texts go by SMS from now
 * on, those already queued included, and the owner sees why (whatsapp_refused_at).
 */
async function moveToSms(db: DbOrTx, phone: string, now: Date): Promise<void> {
  const moved = await db
    .update(users)
    .set({ messagingPreference: 'sms', whatsappRefusedAt: now })
    .where(eq(users.phoneNumber, phone))
    .returning({ id: users.id });
  // Each Loop's own record of the preference it was typed with (decision 0031) says SMS too.
  const ids = moved.map((user) => user.id);
  if (ids.length > 0) {
    await db
      .update(members)
      .set({ messagingPreference: 'sms' })
      .where(and(inArray(members.userId, ids), eq(members.messagingPreference, 'whatsapp')));
  }
  await db
    .update(messages)
    .set({ channel: 'sms', fromAddress: '', updatedAt: sql`now()` })
    .where(
      and(
        eq(messages.toAddress, phone),
        eq(messages.direction, 'outbound'),
        eq(messages.channel, 'whatsapp'),
        eq(messages.status, 'queued'),
      ),
    );
}

/** Twilio says the WhatsApp window is closed: the next texts use a template (or SMS). */
export async function closeWhatsappWindow(db: DbOrTx, phone: string): Promise<void> {
  await db
    .update(users)
    .set({ lastWhatsappInboundAt: null })
    .where(eq(users.phoneNumber, phone.replace(/^whatsapp:/, '')));
}
