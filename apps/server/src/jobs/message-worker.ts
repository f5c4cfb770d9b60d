import { eq, sql } from 'drizzle-orm';
import { messages } from '../db/schema';
import { claimInbound, claimOutbound, senderOf } from '../messaging/claim-messages';
import type { MessageRow, MessagingContext } from '../messaging/context';
import type { FetchMediaOptions } from '../messaging/fetch-media';
import { createPacer, type Pacer } from '../messaging/pacer';
import { processInbound } from '../messaging/process-inbound';
import type { Transcriber } from '../media/transcribe';
import { readSenderFacts, type KnownSender } from '../messaging/sender-facts';
import { toE164 } from '@loop/shared/phone';
import { SEND_ABORT_AFTER_STOP_MS } from '../messaging/provider';
import { releaseMessages } from '../messaging/release-messages';
import { sendDueTexts } from '../messaging/send-outbound';
import { onWake, textsArriving } from '../messaging/worker-signal';

/** The oldest due texts a claim looks at; it takes those of the senders it can have. */
const INBOUND_BATCH = 200;
const OUTBOUND_BATCH = 50;
const UNPACED_BATCH = 500;
const LEASE_MS = 2 * 60_000;

export interface WorkerOptions {
  pacer?: Pacer;
  fetchOptions?: FetchMediaOptions;
  /** Transcribes voice memos (decision 0024); unset: the config's (media/transcribe.ts), null: none. */
  transcriber?: Transcriber | null;
}

/**
 * Handles due inbound texts once; returns how many it claimed. Texts are claimed by sender
 * (claimInbound: no other claim holds a sender's texts meanwhile) and handled side by side,
 * INBOUND_CONCURRENCY senders at once, each sender's texts one after the other in the order they
 * were stored (decision 0016).
 */
export async function sweepInbound(ctx: MessagingContext, options: WorkerOptions = {}, signal?: AbortSignal): Promise<number> {
  const now = ctx.clock();
  const rows = await claimInbound(ctx.db, { now, leaseUntil: new Date(now.getTime() + LEASE_MS), limit: INBOUND_BATCH });
  const bySender = new Map<string, MessageRow[]>();
  for (const row of rows) {
    const key = senderOf(row.fromAddress);
    const texts = bySender.get(key);
    if (texts) texts.push(row);
    else bySender.set(key, [row]);
  }
  const senders = [...bySender.entries()];
  // Who the senders are, whether they opted out and their Loops: three statements for the batch
  // instead of three per text (each sender's facts hold until one of its texts changes them).
  const facts = await readSenderFacts(ctx.db, senders.map(([phone]) => phone).filter((phone) => toE164(phone) === phone));
  const released: number[] = [];
  const handleSenders = async () => {
    for (let next = senders.shift(); next; next = senders.shift()) {
      const [phone, texts] = next;
      const known: KnownSender = { facts: facts.get(phone) };
      for (const [index, row] of texts.entries()) {
        // Stopping: the rest go back for the next process instead of waiting out their lease.
        if (signal?.aborted) {
          released.push(...texts.slice(index).map((r) => r.id));
          break;
        }
        await processInbound(ctx, row, {
          ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
          ...(options.transcriber !== undefined ? { transcriber: options.transcriber } : {}),
          known,
        }).catch((error: unknown) =>
          retryInbound(ctx, row, error),
        );
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(ctx.config.INBOUND_CONCURRENCY, senders.length) }, handleSenders));
  await releaseMessages(ctx.db, 'inbound', released);
  return rows.length;
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
  const loops = [
    // Inbound goes on while a claim finds anything: a claim may take fewer than it looked at (senders held elsewhere).
    loop(() => yieldingWhileBusy(() => sweepInbound(ctx, options, stopping.signal)), 1),
    loop(() => sweepOutbound(ctx, pacer, stopping.signal, abortSends.signal), OUTBOUND_BATCH),
  ];
  // A wake-up usually comes from inside a transaction: give it a moment to commit. One timer
  // at a time, however many texts arrive meanwhile.
  let wakeTimer: NodeJS.Timeout | undefined;
  const unsubscribe = onWake(() => {
    wakeTimer ??= setTimeout(() => {
      wakeTimer = undefined;
      loops.forEach((l) => l.kick());
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

  /**
   * While webhooks keep arriving, rest as long as the last batch took: storing new texts (what
   * Twilio waits for) gets at least half of the process, which matters most on PGlite, where the
   * database runs in this same thread. Without new texts the worker runs at full speed.
   */
  async function yieldingWhileBusy(sweep: () => Promise<number>): Promise<number> {
    const started = performance.now();
    const claimed = await sweep();
    if (claimed > 0 && textsArriving() && !stopped) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(1000, performance.now() - started)));
    }
    return claimed;
  }

  return {
    stop: async () => {
      stopped = true;
      stopping.abort();
      const abortTimer = setTimeout(() => abortSends.abort(), SEND_ABORT_AFTER_STOP_MS);
      clearTimeout(wakeTimer);
      unsubscribe();
      await Promise.all(loops.map((l) => l.stop()));
      clearTimeout(abortTimer);
    },
  };
}
