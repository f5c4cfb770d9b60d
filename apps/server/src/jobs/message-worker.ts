import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { messages } from '../db/schema';
import { claimInbound, claimOutbound, leaseInbound, senderOf, takeInbound } from '../messaging/claim-messages';
import type { MessageRow, MessagingContext } from '../messaging/context';
import type { FetchMediaOptions } from '../messaging/fetch-media';
import { createPacer, type Pacer } from '../messaging/pacer';
import { planPlainText, storePlainTexts, type PlainText } from '../messaging/plain-texts';
import { processInbound } from '../messaging/process-inbound';
import { readSenderFacts, type KnownSender, type SenderFacts } from '../messaging/sender-facts';
import { toE164 } from '@loop/shared/phone';
import { SEND_ABORT_AFTER_STOP_MS } from '../messaging/provider';
import { releaseMessages } from '../messaging/release-messages';
import { sendDueTexts } from '../messaging/send-outbound';
import { onWake, type WakeCause } from '../messaging/worker-signal';

/** The oldest due texts a claim looks at; it takes those of the senders it can have. */
const INBOUND_BATCH = 500;
const OUTBOUND_BATCH = 50;
const UNPACED_BATCH = 500;
const LEASE_MS = 2 * 60_000;

export interface WorkerOptions {
  pacer?: Pacer;
  fetchOptions?: FetchMediaOptions;
  /** A batch of plain texts could not be stored together: its texts are handled one at a time instead. */
  onBatchError?: (error: unknown) => void;
}

/**
 * Handles due inbound texts once; returns how many it took. Texts are taken by sender
 * (takeInbound: no other claim holds a sender's texts meanwhile) in one transaction that stores
 * each sender's plain texts (planPlainText: no keyword, photo or invitation answer), up to its
 * first other one, set-wise for the whole batch (storePlainTexts), and leases the rest. Those are
 * handled after it, side by side, INBOUND_CONCURRENCY senders at once, each sender's texts one
 * after the other in the order they were stored (decision 0016). Should that transaction fail,
 * the batch is claimed again and handled a text at a time, each text failing alone.
 */
export async function sweepInbound(ctx: MessagingContext, options: WorkerOptions = {}, signal?: AbortSignal): Promise<number> {
  const now = ctx.clock();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  let batch: { taken: number; waiting: Map<string, MessageRow[]>; facts: Map<string, SenderFacts> };
  try {
    batch = await ctx.db.transaction(async (tx) => {
      const rows = await takeInbound(tx, { now, limit: INBOUND_BATCH });
      const { bySender, facts } = await sendersOf(tx, rows);
      const plain: PlainText[] = [];
      const rest: number[] = [];
      for (const [phone, texts] of bySender) {
        const known = facts.get(phone);
        for (const [index, row] of texts.entries()) {
          const plan = planPlainText(row, known);
          if (!plan) {
            rest.push(...texts.slice(index).map((r) => r.id));
            break;
          }
          plain.push(plan);
        }
      }
      // Stopping: nothing is leased, the texts stay due for the next process.
      if (signal?.aborted) return { taken: 0, waiting: new Map(), facts };
      await storePlainTexts(tx, plain);
      const leased = await leaseInbound(tx, rest, leaseUntil);
      return { taken: rows.length, waiting: groupBySender(leased), facts };
    });
  } catch (error) {
    options.onBatchError?.(error);
    const rows = await claimInbound(ctx.db, { now, leaseUntil, limit: INBOUND_BATCH });
    const { bySender, facts } = await sendersOf(ctx.db, rows);
    batch = { taken: rows.length, waiting: bySender, facts };
  }
  const { facts } = batch;
  const waiting = [...batch.waiting];
  const released: number[] = [];
  const handleSenders = async () => {
    for (let next = waiting.shift(); next; next = waiting.shift()) {
      const [phone, texts] = next;
      const known: KnownSender = { facts: facts.get(phone) };
      for (const [index, row] of texts.entries()) {
        // Stopping: the rest go back for the next process instead of waiting out their lease.
        if (signal?.aborted) {
          released.push(...texts.slice(index).map((r) => r.id));
          break;
        }
        await processInbound(ctx, row, { ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}), known }).catch((error: unknown) =>
          retryInbound(ctx, row, error),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.config.INBOUND_CONCURRENCY, waiting.length) }, handleSenders));
  await releaseMessages(ctx.db, 'inbound', released);
  return batch.taken;
}

/** Texts by sender (the phone: SMS and WhatsApp texts of one phone are one sender), each sender's oldest first. */
function groupBySender(rows: MessageRow[]): Map<string, MessageRow[]> {
  const bySender = new Map<string, MessageRow[]>();
  for (const row of rows) {
    const key = senderOf(row.fromAddress);
    const texts = bySender.get(key);
    if (texts) texts.push(row);
    else bySender.set(key, [row]);
  }
  return bySender;
}

/**
 * The texts by sender, and who the senders are, whether they opted out and their Loops: three
 * statements for the batch instead of three per text (each sender's facts hold until one of its
 * texts changes them).
 */
async function sendersOf(db: DbOrTx, rows: MessageRow[]) {
  const bySender = groupBySender(rows);
  const facts = await readSenderFacts(db, [...bySender.keys()].filter((phone) => toE164(phone) === phone));
  return { bySender, facts };
}

/**
 * Sends due outbound texts (sendDueTexts: claimed a batch at a time with each phone's opt-out,
 * side by side per phone and in order for one phone, paced). Returns how many it claimed.
 */
export async function sweepOutbound(ctx: MessagingContext, pacer: Pacer, signal?: AbortSignal, abortSends?: AbortSignal): Promise<number> {
  const { SEND_RATE_PER_SECOND: rate } = ctx.config;
  // A paced batch spans about five seconds. Unpaced, a larger batch means fewer claims.
  const batch = rate > 0 ? Math.max(OUTBOUND_BATCH, Math.ceil(rate * 5)) : UNPACED_BATCH;
  // Long enough for a paced batch to finish before another process may take the rows again.
  const lease = Math.max(LEASE_MS, rate > 0 ? (batch / rate) * 2000 : 0);
  const claim = (limit: number) => {
    const now = ctx.clock();
    return claimOutbound(ctx.db, { now, leaseUntil: new Date(now.getTime() + lease), limit });
  };
  // Paced, the first claim is a second's worth: the pace starts sooner, the rest follows at once.
  const firstBatch = rate > 0 ? Math.max(10, Math.ceil(rate)) : batch;
  return sendDueTexts(ctx, { claim, batch, firstBatch, pacer, signal, abortSends });
}

/**
 * Works until nothing is due: for tests and scripts that want every queued text handled now,
 * without timers. Rows scheduled for later (backoff) wait until the clock reaches them.
 */
export async function processPending(ctx: MessagingContext, options: WorkerOptions = {}): Promise<{ inbound: number; outbound: number }> {
  const pacer = options.pacer ?? createPacer(ctx.db, ctx.config.SEND_RATE_PER_SECOND);
  const total = { inbound: 0, outbound: 0 };
  for (let round = 0; round < 10_000; round++) {
    const inbound = await sweepInbound(ctx, options);
    const outbound = await sweepOutbound(ctx, pacer);
    total.inbound += inbound;
    total.outbound += outbound;
    if (inbound === 0 && outbound === 0) return total;
  }
  throw new Error('processPending: still finding work after 10,000 rounds');
}

async function retryInbound(ctx: MessagingContext, row: MessageRow, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const last = row.attempts >= ctx.config.SEND_MAX_ATTEMPTS;
  const delayMs = ctx.config.SEND_RETRY_BASE_SECONDS * 1000 * 2 ** (row.attempts - 1);
  await ctx.db
    .update(messages)
    .set({
      status: last ? 'failed' : 'received',
      error: message,
      nextAttemptAt: last ? null : new Date(ctx.clock().getTime() + delayMs),
      updatedAt: sql`now()`,
    })
    .where(eq(messages.id, row.id));
}

export interface MessageWorker {
  stop: () => Promise<void>;
}

/**
 * Runs the sweeps in the background: at once when this process stores or queues a text, and
 * every `pollMs` for rows from other processes, retries and expired leases. Inbound and outbound
 * run apart, so paced sending never holds up incoming texts.
 */
export function startMessageWorker(
  ctx: MessagingContext,
  options: WorkerOptions & { pollMs?: number; onError: (error: unknown) => void },
): MessageWorker {
  const pollMs = options.pollMs ?? 1000;
  const pacer = options.pacer ?? createPacer(ctx.db, ctx.config.SEND_RATE_PER_SECOND);
  let stopped = false;
  // Aborted at stop: texts still waiting for their turn are released, sends under way finish...
  const stopping = new AbortController();
  // ...unless the provider has not answered SEND_ABORT_AFTER_STOP_MS later: then they are aborted
  // and released too (a slow Twilio would otherwise hold the stop for its 30 s timeout).
  const abortSends = new AbortController();
  // Inbound goes on while a claim finds anything (a claim may take fewer than it looked at:
  // senders held elsewhere), also while webhooks keep arriving: a batch is a few statements.
  const inbound = loop(() => sweepInbound(ctx, options, stopping.signal), 1);
  const outbound = loop(() => sweepOutbound(ctx, pacer, stopping.signal, abortSends.signal), OUTBOUND_BATCH);
  const loops = { inbound, outbound };
  // A wake-up usually comes from inside a transaction: give it a moment to commit. One timer
  // per loop at a time, however many texts arrive meanwhile.
  const wakeTimers: Partial<Record<WakeCause, NodeJS.Timeout>> = {};
  const unsubscribe = onWake((cause) => {
    wakeTimers[cause] ??= setTimeout(() => {
      wakeTimers[cause] = undefined;
      loops[cause].kick();
    }, 20).unref();
  });

  function loop(sweep: () => Promise<number>, batch: number) {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> | undefined;
    let again = false;
    const run = async () => {
      do {
        again = false;
        try {
          // A full batch means more may be waiting: go on without waiting for the poll.
          while (!stopped && (await sweep()) >= batch);
        } catch (error) {
          options.onError(error);
        }
      } while (again && !stopped);
    };
    const kick = () => {
      if (stopped) return;
      if (running) {
        again = true;
        return;
      }
      clearTimeout(timer);
      running = run().finally(() => {
        running = undefined;
        if (!stopped) timer = setTimeout(kick, pollMs);
      });
    };
    kick();
    return {
      kick,
      stop: async () => {
        clearTimeout(timer);
        await running;
      },
    };
  }

  return {
    stop: async () => {
      stopped = true;
      stopping.abort();
      const abortTimer = setTimeout(() => abortSends.abort(), SEND_ABORT_AFTER_STOP_MS);
      Object.values(wakeTimers).forEach(clearTimeout);
      unsubscribe();
      await Promise.all([inbound.stop(), outbound.stop()]);
      clearTimeout(abortTimer);
    },
  };
}
