import { getMaxListeners, setMaxListeners } from 'node:events';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { databaseUnavailable } from '../../errors';
import { recordset } from '../../db/recordset';
import { earlyStatuses, messages } from '../../db/schema';
import type { MessageRow, MessagingContext } from '../../messaging/context';
import { providerFor } from '../../messaging/create-provider';
import { paceOf, planDelivery, type DeliveryPlan } from '../../messaging/plan-delivery';
import { PERMANENT_ERROR_CODES, SEND_CONCURRENCY, SEND_TIMEOUT_MS, SendError } from '../../messaging/provider';
import { applyEarlyStatuses, closeWhatsappWindow, markPhone } from '../../messaging/record-status';
import { sendableTextsQuery, type Sendable } from '../../messaging/recipients';
import { finishAttempt, retryOrFail } from '../finish-attempt';
import type { Pacer } from '../pacer';
import { recordOutcome } from '../record-outcome';
import { releaseMessages } from '../release-messages';
import type { ClaimedText } from './claim-texts';

/** How long one sendDueTexts goes on claiming more; the worker then starts it again. */
const REFILL_FOR_MS = 30_000;
/** A text goes out only while its lease has the provider's timeout and this much left. */
const LEASE_MARGIN_MS = 5_000;
/** Rows per `sent` update: a few hundred keeps each statement far below the parameter limit. */
const SENT_PER_UPDATE = 500;
const OPTED_OUT_ERROR = 'Not sent: this phone opted out of texts (STOP).';
const NOT_ALLOWED_ERROR = 'Not sent: the member left the Loop, or the Loop was paused, after the text was queued.';
const ANSWERED_ERROR = 'Not sent: the invitation was answered (they joined or declined) or withdrawn after it was queued.';
const undeliverableError = (code: number) => `Not sent: Twilio error ${code} said this phone cannot receive texts.`;
const STRANGER_ERROR =
  'Not sent: this number is in no Loop and had an answer less than a day ago (one a day, so two automated senders never answer each other).';

/**
 * Sends due outbound texts, claimed `batch` at a time by `claim` (claimTexts): the rows are
 * `sending` under this process's lease. Whether each may still go out (opt-out, membership, pause, the number)
 * is checked again at the moment it is sent, after its wait for the pace (SendCheck: one query for
 * all texts ready at once).
 *
 * - Texts to different phones go side by side, SEND_CONCURRENCY at a time (the pacer hands out
 *   each sender's time slots in order, so concurrency never breaks the pace); texts to one phone
 *   go in order, so a welcome never arrives after the reminder queued behind it.
 * - When half a batch is left to start, the next batch is claimed while these go out, so
 *   sending never stops to wait for the database (at a pace, a pause is time lost for good).
 *   Claiming stops when a claim comes back short, after REFILL_FOR_MS, or when stopping.
 * - Texts Twilio took are recorded `sent` a group at a time (SentLog).
 * - When `signal` aborts (stopping), sends under way finish and the texts not started are released.
 *
 * Returns how many rows it claimed.
 */
export async function sendDueTexts(
  ctx: MessagingContext,
  input: {
    claim: (limit: number) => Promise<ClaimedText[]>;
    batch: number;
    /** A smaller first claim, so the first text goes out sooner (a paced sender: one second's worth). */
    firstBatch?: number;
    pacer: Pacer;
    signal?: AbortSignal | undefined;
    /** Aborts the sends already handed to the provider (a few seconds into a stop): their texts are released too. */
    abortSends?: AbortSignal | undefined;
  },
): Promise<number> {
  const { pacer, signal, abortSends } = input;
  // Every text waiting for its slot listens for the abort: as many as are in flight.
  if (signal && getMaxListeners(signal) < SEND_CONCURRENCY + 10) setMaxListeners(SEND_CONCURRENCY + 10, signal);
  const started = performance.now();
  /** Groups of texts to one phone, not started yet, in order of their first text. */
  const queue: ClaimedText[][] = [];
  /** Each phone's group while it is queued or being sent: a later claim's texts join it. */
  const groupOf = new Map<string, ClaimedText[]>();
  const sentLog = new SentLog(ctx);
  const check = new SendCheck(ctx);
  const unsent: number[] = [];
  const late: ClaimedText[] = [];
  const tasks: Promise<void>[] = [];
  let claimed = 0;
  let notStarted = 0;
  let active = 0;
  let claiming = false;
  let exhausted = false;

  const take = async (rows: ClaimedText[], limit: number) => {
    claimed += rows.length;
    if (rows.length < limit) exhausted = true;
    for (const row of rows) {
      notStarted++;
      const group = groupOf.get(row.toAddress);
      if (group) {
        group.push(row);
      } else {
        const fresh = [row];
        groupOf.set(row.toAddress, fresh);
        // A text someone waits for goes before the bulk ones claimed earlier (decision 0051).
        const before = row.priority > 0 ? queue.findIndex((g) => (g[0]?.priority ?? 0) === 0) : -1;
        if (before >= 0) queue.splice(before, 0, fresh);
        else queue.push(fresh);
      }
    }
    while (active < SEND_CONCURRENCY && queue.length > 0) {
      active++;
      tasks.push(run().finally(() => active--));
    }
  };
  const claimMore = () => {
    if (claiming || exhausted || signal?.aborted || performance.now() - started > REFILL_FOR_MS) return;
    claiming = true;
    tasks.push(
      input
        .claim(input.batch)
        .then((rows) => take(rows, input.batch))
        .finally(() => {
          claiming = false;
        }),
    );
  };
  const run = async () => {
    for (let group = queue.shift(); group; group = queue.shift()) {
      const phone = group[0]?.toAddress;
      try {
        // `group` may grow while it is sent: a later claim's texts to this phone join it.
        for (let index = 0; index < group.length; index++) {
          const row = group[index] as ClaimedText;
          notStarted--;
          if (notStarted < input.batch / 2) claimMore();
          const outcome = signal?.aborted
            ? 'stopped'
            : await deliver(ctx, row, pacer, check, signal, row.lastWhatsappInboundAt, abortSends).catch(lateIfDatabaseDown);
          if (outcome === 'stopped' || outcome === 'late') {
            // The rest of this phone's texts go back too: they must not overtake this one.
            const rest = group.slice(index);
            notStarted -= rest.length - 1;
            if (outcome === 'stopped') unsent.push(...rest.map((r) => r.id));
            else late.push(...rest);
            break;
          }
          if (outcome !== 'failed') sentLog.add(outcome);
        }
      } finally {
        if (phone !== undefined) groupOf.delete(phone);
      }
    }
  };

  const first = Math.min(input.batch, input.firstBatch ?? input.batch);
  await take(await input.claim(first), first);
  const results: PromiseSettledResult<void>[] = [];
  // Tasks add tasks (a claim starts senders, a sender starts a claim): settle until none are new.
  while (results.length < tasks.length) results.push(...(await Promise.allSettled(tasks.slice(results.length))));
  await sentLog.drain();
  if (unsent.length > 0) await recordOutcome(() => releaseMessages(ctx.db, 'outbound', unsent));
  await recordOutcome(() => giveBack(ctx.db, late));
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return claimed;
}

/**
 * deliver's answer when it threw: the database could not be reached before the text was handed
 * to the provider (deliver reaches the database after a send only through recordOutcome, which
 * waits for it), so the text was not sent and goes back to the queue, like a late one, instead of
 * waiting out its lease. Any other error is thrown on.
 */
function lateIfDatabaseDown(error: unknown): 'late' {
  if (databaseUnavailable(error)) return 'late';
  throw error;
}

/** A text the provider took, to be recorded `sent`. */
interface SentRecord {
  id: number;
  /** The claim's attempt: a row claimed again since (our lease ran out) is not ours to record. */
  attempts: number;
  providerMessageId: string;
  channel: 'sms' | 'whatsapp';
  fromAddress: string;
  sentAt: Date;
}

/** Check queries in flight at once: a text never waits behind more than a short one. */
const CHECKS_IN_FLIGHT = 2;

/**
 * Asks, for many texts at once, whether each may still go out (recipients.ts: the one rule) and
 * reads the member's WhatsApp window as it is now. A text asks once it is ready to go (after its
 * wait for the pace) and is answered by a query that starts after it asked, never by one already
 * under way, so a STOP committed before it asked always counts. Texts that become ready together
 * share one query; up to CHECKS_IN_FLIGHT run side by side, so at full speed a text waits about
 * one short query, and the database does one query for dozens of texts.
 */
class SendCheck {
  private waiting: { id: number; resolve: (value: Sendable) => void; reject: (error: unknown) => void }[] = [];
  private inFlight = 0;
  private readonly sendable: ReturnType<typeof sendableTextsQuery>;

  constructor(ctx: MessagingContext) {
    this.sendable = sendableTextsQuery(ctx.db, ctx.config.smsCountries);
  }

  check(id: number): Promise<Sendable> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ id, resolve, reject });
      // Let the texts that become ready in this same turn join the query.
      if (this.waiting.length === 1) queueMicrotask(() => this.start());
    });
  }

  private start(): void {
    if (this.waiting.length === 0 || this.inFlight >= CHECKS_IN_FLIGHT) return;
    const batch = this.waiting.splice(0);
    this.inFlight++;
    this.sendable(batch.map((w) => w.id))
      .then(
        (found) => {
          for (const w of batch)
            w.resolve(
              found.get(w.id) ?? {
                allowed: false,
                refusal: null,
                optedOut: false,
                undeliverable: null,
                strangerRepliedToday: false,
                invitationAnswered: false,
                lastWhatsappInboundAt: null,
              },
            );
        },
        (error: unknown) => {
          for (const w of batch) w.reject(error);
        },
      )
      .finally(() => {
        this.inFlight--;
        this.start();
      });
  }
}

/**
 * Plans, paces, checks and sends one claimed row. A failure is recorded here (retry with backoff,
 * or failed); a text the provider took is returned for the caller to record. Not sent: 'stopped',
 * the process is stopping; 'late', too little of the lease is left to be sure of the provider's
 * answer before another process may take the row (a slow provider, a long wait for the pace).
 */
async function deliver(
  ctx: MessagingContext,
  row: MessageRow,
  pacer: Pacer,
  check: SendCheck,
  signal: AbortSignal | undefined,
  lastWhatsappInboundAt?: Date | null,
  abortSends?: AbortSignal,
): Promise<SentRecord | 'stopped' | 'late' | 'failed'> {
  let plan = await planDelivery(ctx, row, lastWhatsappInboundAt);
  if (row.inDoubtSince) {
    // The last attempt may have reached Twilio: ask before sending again (decision 0064).
    const earlier = await findEarlierSend(ctx, row, plan, row.inDoubtSince, abortSends);
    if (earlier === 'stopped' || earlier === 'failed') return earlier;
    if (earlier) return { id: row.id, attempts: row.attempts, ...earlier, channel: plan.channel, sentAt: ctx.clock() };
  }
  const pace = (p: DeliveryPlan) => {
    const { sender, segments } = paceOf(ctx.config, p, row);
    return pacer.wait(sender, signal, segments, row.priority > 0);
  };
  await pace(plan);
  if (signal?.aborted) return 'stopped';
  // The moment of sending: a STOP, a removal or a pause since the claim stops the text here.
  const now = await check.check(row.id);
  if (!now.allowed) {
    const error = now.optedOut
      ? OPTED_OUT_ERROR
      : now.refusal
        ? `Not sent: ${now.refusal}`
        : now.undeliverable !== null
          ? undeliverableError(now.undeliverable)
          : now.strangerRepliedToday
            ? STRANGER_ERROR
            : now.invitationAnswered
              ? ANSWERED_ERROR
              : NOT_ALLOWED_ERROR;
    await recordOutcome(() => finishAttempt(ctx.db, row, { status: 'failed', error }));
    return 'failed';
  }
  if (row.channel === 'whatsapp') {
    // The window as it is now: a 63016 since the claim closed it.
    const fresh = await planDelivery(ctx, row, now.lastWhatsappInboundAt);
    if (fresh.from !== plan.from) await pace(fresh);
    plan = fresh;
  }
  const leaseLeft = (row.nextAttemptAt?.getTime() ?? Infinity) - ctx.clock().getTime();
  if (leaseLeft < SEND_TIMEOUT_MS + LEASE_MARGIN_MS) return 'late';
  let providerMessageId: string;
  try {
    providerMessageId = await send(ctx, row, plan, abortSends);
  } catch (error) {
    // Aborted as the process stops: the text goes back to the outbox, its attempt not counted.
    if (abortSends?.aborted) return 'stopped';
    let failure = error instanceof SendError ? error : new SendError(error instanceof Error ? error.message : String(error), true);
    if (failure.code === PERMANENT_ERROR_CODES.notWhatsApp && plan.channel === 'whatsapp') {
      // No WhatsApp on this number: the person is moved to SMS, and this text goes by SMS now.
      // https://www.twilio.com/docs/api/errors/63024
      await markPhone(ctx.db, row.toAddress, failure.code, ctx.clock());
      plan = await planDelivery(ctx, { ...row, channel: 'sms', fromAddress: '' });
      await pace(plan);
      try {
        providerMessageId = await send(ctx, row, plan, abortSends);
        return { id: row.id, attempts: row.attempts, providerMessageId, channel: 'sms', fromAddress: plan.from, sentAt: ctx.clock() };
      } catch (retryError) {
        if (abortSends?.aborted) return 'stopped';
        failure = retryError instanceof SendError ? retryError : new SendError(String(retryError), true);
      }
    }
    if (failure.code === PERMANENT_ERROR_CODES.outsideWhatsAppWindow && !plan.template) {
      // Twilio's advice for 63016: the window is closed, so send it again as the approved
      // template (or by SMS when none is configured). https://www.twilio.com/docs/api/errors/63016
      await closeWhatsappWindow(ctx.db, row.toAddress);
      const again = await planDelivery(ctx, row, null);
      if (!again.template && again.channel === 'whatsapp') {
        await recordFailure(ctx, row, failure);
        return 'failed';
      }
      plan = again;
      await pace(plan);
      try {
        providerMessageId = await send(ctx, row, plan, abortSends);
        return {
          id: row.id,
          attempts: row.attempts,
          providerMessageId,
          channel: plan.channel,
          fromAddress: plan.from,
          sentAt: ctx.clock(),
        };
      } catch (retryError) {
        if (abortSends?.aborted) return 'stopped';
        failure = retryError instanceof SendError ? retryError : new SendError(String(retryError), true);
      }
    }
    await recordFailure(ctx, row, failure);
    return 'failed';
  }
  return { id: row.id, attempts: row.attempts, providerMessageId, channel: plan.channel, fromAddress: plan.from, sentAt: ctx.clock() };
}

/**
 * Asks the provider whether it took this text since `since` (its last attempt's answer was lost):
 * the id and sender it was sent with, or null to send it now. When the provider cannot be asked,
 * the row is tried again later, still in doubt ('failed': recorded here).
 */
async function findEarlierSend(
  ctx: MessagingContext,
  row: MessageRow,
  plan: DeliveryPlan,
  since: Date,
  abortSends?: AbortSignal,
): Promise<{ providerMessageId: string; fromAddress: string } | null | 'stopped' | 'failed'> {
  const provider = providerFor(ctx.provider, plan.from);
  // A template's text is Twilio's, not the row's body: there is nothing to match it by.
  if (!provider.findSent || plan.template) return null;
  try {
    const found = await provider.findSent({ to: plan.to, body: row.body, since }, abortSends);
    return found ? { providerMessageId: found.providerMessageId, fromAddress: found.from } : null;
  } catch (error) {
    if (abortSends?.aborted) return 'stopped';
    const message = error instanceof Error ? error.message : String(error);
    await recordOutcome(() =>
      retryOrFail(ctx, row, `Not sent yet: could not ask Twilio whether an earlier attempt went out (${message})`, true, {
        inDoubtSince: since,
      }),
    );
    return 'failed';
  }
}

async function send(ctx: MessagingContext, row: MessageRow, plan: DeliveryPlan, abortSends?: AbortSignal): Promise<string> {
  const { config } = ctx;
  const mediaUrls = row.mediaUrls.map((url) => (url.startsWith('/') ? `${config.PUBLIC_URL}${url}` : url));
  const sent = await providerFor(ctx.provider, plan.from).send(
    {
      to: plan.to,
      from: plan.from,
      body: row.body,
      mediaUrls,
      ...(plan.template ? { template: plan.template } : {}),
      ...(config.PUBLIC_URL.startsWith('https://') ? { statusCallback: `${config.PUBLIC_URL}/api/webhooks/twilio/status` } : {}),
    },
    abortSends,
  );
  return sent.providerMessageId;
}

/**
 * Records sent texts like a group commit: the first is written at once, and those Twilio takes
 * while that write is under way are written together by the next statement. At a slow pace every
 * text is recorded as soon as it is sent (its status callback can find it); at full speed one
 * statement and one commit cover dozens of texts instead of one each.
 */
class SentLog {
  private pending: SentRecord[] = [];
  private writing: Promise<void> | undefined;
  private failure: unknown;

  constructor(private readonly ctx: MessagingContext) {}

  add(record: SentRecord): void {
    this.pending.push(record);
    this.writing ??= this.write();
  }

  /** Resolves when every added text is written; throws the first write's error, if any. */
  async drain(): Promise<void> {
    while (this.writing) await this.writing;
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- rethrows the write's error, as it was thrown
    if (this.failure !== undefined) throw this.failure;
  }

  private async write(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, SENT_PER_UPDATE);
        // Tried again while the database cannot be reached (decision 0064). A write that still
        // fails leaves its texts `sending`: when the lease runs out, the claim that takes them
        // back marks them in doubt, and Twilio is asked before any is sent again.
        await recordOutcome(() => recordSent(this.ctx, batch)).catch((error: unknown) => {
          this.failure ??= error;
        });
      }
    } finally {
      this.writing = undefined;
    }
  }
}

/**
 * Marks texts `sent` in one statement, each with its own Twilio id, channel and sender, and
 * applies any status callback that came before this write (kept in early_statuses).
 */
async function recordSent(ctx: MessagingContext, records: SentRecord[]): Promise<void> {
  const { db } = ctx;
  if (records.length === 0) return;
  // One JSON parameter for the whole group: the statement text is the same for 1 text or 500.
  const values = records.map((r) => ({
    id: r.id,
    attempts: r.attempts,
    provider_message_id: r.providerMessageId,
    channel: r.channel,
    from_address: r.fromAddress,
    sent_at: r.sentAt.toISOString(),
  }));
  // One statement: the update, and whether any callback for these sids is waiting (rarely).
  const result = await db.execute(sql`
    with sent as (
      update ${messages}
      set status = 'sent', provider_message_id = v.provider_message_id, channel = v.channel, from_address = v.from_address,
          sent_at = v.sent_at, error = null, next_attempt_at = null, in_doubt_since = null, updated_at = now()
      from ${recordset('v', { id: 'bigint', attempts: 'integer', provider_message_id: 'text', channel: 'message_channel', from_address: 'text', sent_at: 'timestamptz' }, values)}
      where ${messages.id} = v.id and ${messages.status} = 'sending' and ${messages.attempts} = v.attempts
      returning v.provider_message_id
    )
    select distinct e.provider_message_id from ${earlyStatuses} e join sent on sent.provider_message_id = e.provider_message_id`);
  const early = (result as { rows: { provider_message_id: string }[] }).rows.map((r) => r.provider_message_id);
  if (early.length > 0) await applyEarlyStatuses(db, { maxAttempts: ctx.config.SEND_MAX_ATTEMPTS, now: ctx.clock(), sids: early });
}

/**
 * Puts claimed texts that were not tried back in the queue, due at once, their claim's attempt
 * not counted. Each only while this claim still holds it (`sending` at the claim's attempt).
 */
async function giveBack(db: Db, rows: MessageRow[]): Promise<void> {
  if (rows.length === 0) return;
  const held = sql.join(
    rows.map((r) => sql`(${r.id}::bigint, ${r.attempts}::integer)`),
    sql`, `,
  );
  await db.execute(sql`
    update ${messages} set status = 'queued', attempts = greatest(${messages.attempts} - 1, 0), next_attempt_at = null, updated_at = now()
    where ${messages.status} = 'sending' and (${messages.id}, ${messages.attempts}) in (values ${held})`);
}

async function recordFailure(ctx: MessagingContext, row: MessageRow, failure: SendError): Promise<void> {
  const permanent = Object.values(PERMANENT_ERROR_CODES).some((code) => code === failure.code);
  if (permanent) await markPhone(ctx.db, row.toAddress, failure.code ?? 0, ctx.clock());
  return recordOutcome(() => retryOrFail(ctx, row, failure.message, failure.retryable && !permanent));
}
