import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client';
import { messages } from '../db/schema';
import { claimInbound, leaseInbound, senderOf, takeInbound } from '../messaging/claim-messages';
import type { MessageRow, MessagingContext } from '../messaging/context';
import type { FetchMediaOptions } from '../messaging/fetch-media';
import { CHANNELS } from '../outbox/channels';
import type { ChannelAdapter } from '../outbox/channel';
import { retryDelayMs } from '../outbox/finish-attempt';
import type { Pacer } from '../outbox/pacer';
import { releaseMessages } from '../outbox/release-messages';
import { planFastText, storeFastTexts, type FastText } from '../services/inbound/fast-texts';
import { inboundSettings } from '../services/inbound/decide-inbound';
import { handleInbound } from '../services/inbound/handle-inbound';
import { readSenderFacts, type HeldFacts, type SenderFacts } from '../services/inbound/sender-facts';
import { toE164 } from '@loop/shared/phone';
import { SEND_ABORT_AFTER_STOP_MS } from '../messaging/provider';
import { onWake, type WakeCause } from '../messaging/worker-signal';

/** The oldest due texts a claim looks at; it takes those of the senders it can have. */
const INBOUND_BATCH = 500;
const LEASE_MS = 2 * 60_000;

export interface WorkerOptions {
  /** A channel's pace in place of its own (channel.createPacer), by channel name (outbox/channels.ts). */
  pacers?: Partial<Record<string, Pacer>>;
  fetchOptions?: FetchMediaOptions;
  /** A batch of fast texts could not be stored together: its texts are handled one at a time instead. */
  onBatchError?: (error: unknown) => void;
}

/** A batch taken by takeInboundBatch: its texts to handle one at a time, by sender. */
interface InboundBatch {
  /** Texts the claim looked at and took. */
  taken: number;
  /** Of those, stored (fast texts) or leased to be handled here: 0 means nothing moved. */
  moved: number;
  /** Leased texts by sender, each sender's oldest first: handled one at a time (handleSender). */
  waiting: [string, MessageRow[]][];
  facts: Map<string, SenderFacts>;
}

/**
 * Takes due inbound texts by sender (takeInbound: no other claim holds a sender's texts
 * meanwhile) in one transaction that stores each sender's fast texts (planFastText: no
 * keyword, photo or invitation answer), up to its first other one, set-wise for the whole batch
 * (storeFastTexts), and leases the rest of at most `maxSenders` senders; the others' stay due
 * for a later claim (their fast texts after it too: a sender's texts never overtake each other).
 * The leased ones are for handleSender, side by side by sender, each sender's texts one after the
 * other in the order they were stored (decision 0016). Should that transaction fail, the batch is
 * claimed again and every text of it is to be handled a text at a time, each failing alone.
 */
async function takeInboundBatch(
  ctx: MessagingContext,
  options: WorkerOptions,
  signal: AbortSignal | undefined,
  maxSenders: number,
): Promise<InboundBatch> {
  const now = ctx.clock();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  try {
    return await ctx.db.transaction(async (tx) => {
      const rows = await takeInbound(tx, { now, limit: INBOUND_BATCH });
      const { bySender, facts } = await sendersOf(tx, rows, now);
      const fast: FastText[] = [];
      const rest: number[] = [];
      let restSenders = 0;
      for (const [phone, texts] of bySender) {
        const senderFacts = facts.get(phone);
        for (const [index, row] of texts.entries()) {
          const plan = planFastText(row, senderFacts, inboundSettings(ctx.config));
          if (!plan) {
            if (restSenders++ < maxSenders) rest.push(...texts.slice(index).map((r) => r.id));
            break;
          }
          fast.push(plan);
        }
      }
      // Stopping: nothing is leased, the texts stay due for the next process.
      if (signal?.aborted) return { taken: 0, moved: 0, waiting: [], facts };
      await storeFastTexts(tx, fast);
      const leased = await leaseInbound(tx, rest, leaseUntil);
      return { taken: rows.length, moved: fast.length + leased.length, waiting: [...groupBySender(leased)], facts };
    });
  } catch (error) {
    options.onBatchError?.(error);
    const rows = await claimInbound(ctx.db, { now, leaseUntil, limit: INBOUND_BATCH });
    const { bySender, facts } = await sendersOf(ctx.db, rows, now);
    return { taken: rows.length, moved: rows.length, waiting: [...bySender], facts };
  }
}

/** Handles one sender's leased texts in order; answers those given back because the process is stopping. */
async function handleSender(
  ctx: MessagingContext,
  options: WorkerOptions,
  signal: AbortSignal | undefined,
  [phone, texts]: [string, MessageRow[]],
  facts: Map<string, SenderFacts>,
): Promise<number[]> {
  const held: HeldFacts = { facts: facts.get(phone) };
  for (const [index, row] of texts.entries()) {
    // Stopping: the rest go back for the next process instead of waiting out their lease.
    if (signal?.aborted) return texts.slice(index).map((r) => r.id);
    await handleInbound(ctx, row, {
      ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
      held,
    }).catch((error: unknown) => retryInbound(ctx, row, error));
  }
  return [];
}

/**
 * Handles due inbound texts once, to the end: takes a batch (takeInboundBatch) and handles its
 * leased texts, INBOUND_CONCURRENCY senders at once. Returns how many texts it took. The worker
 * does not wait like this: it takes the next batch while texts with photos or videos convert.
 */
export async function sweepInbound(ctx: MessagingContext, options: WorkerOptions = {}, signal?: AbortSignal): Promise<number> {
  const batch = await takeInboundBatch(ctx, options, signal, Infinity);
  const released: number[] = [];
  const handleSenders = async () => {
    for (let next = batch.waiting.shift(); next; next = batch.waiting.shift())
      released.push(...(await handleSender(ctx, options, signal, next, batch.facts)));
  };
  await Promise.all(Array.from({ length: Math.min(ctx.config.INBOUND_CONCURRENCY, batch.waiting.length) }, handleSenders));
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
 * The texts by sender, and who the senders are, whether they opted out, their Loops, open
 * invitations and question: five statements for the batch instead of five per text (each
 * sender's facts hold until one of its texts changes them).
 */
async function sendersOf(db: DbOrTx, rows: MessageRow[], now: Date) {
  const bySender = groupBySender(rows);
  const facts = await readSenderFacts(
    db,
    [...bySender.keys()].filter((phone) => toE164(phone) === phone),
    now,
  );
  return { bySender, facts };
}

/** Each registered channel with its pace: the one given in `options`, else its own. */
function channelsWithPacers(ctx: MessagingContext, options: WorkerOptions): [ChannelAdapter, Pacer][] {
  return CHANNELS.map((channel) => [channel, options.pacers?.[channel.name] ?? channel.createPacer(ctx)]);
}

/**
 * Works until nothing is due: for tests and scripts that want every queued text handled now,
 * without timers. Rows scheduled for later (backoff) wait until the clock reaches them.
 */
export async function sweepUntilIdle(ctx: MessagingContext, options: WorkerOptions = {}): Promise<{ inbound: number; outbound: number }> {
  const channels = channelsWithPacers(ctx, options);
  const total = { inbound: 0, outbound: 0 };
  for (let round = 0; round < 10_000; round++) {
    const inbound = await sweepInbound(ctx, options);
    let outbound = 0;
    for (const [channel, pacer] of channels) outbound += await channel.sweep(ctx, pacer, {});
    total.inbound += inbound;
    total.outbound += outbound;
    if (inbound === 0 && outbound === 0) return total;
  }
  throw new Error('sweepUntilIdle: still finding work after 10,000 rounds');
}

async function retryInbound(ctx: MessagingContext, row: MessageRow, error: unknown): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const last = row.attempts >= ctx.config.SEND_MAX_ATTEMPTS;
  const delayMs = retryDelayMs(ctx.config.SEND_RETRY_BASE_SECONDS, row.attempts);
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
  let stopped = false;
  // Aborted at stop: texts still waiting for their turn are released, sends under way finish...
  const stopping = new AbortController();
  // ...unless the provider has not answered SEND_ABORT_AFTER_STOP_MS later: then they are aborted
  // and released too (a slow Twilio would otherwise hold the stop for its 30 s timeout).
  const abortSends = new AbortController();
  // Senders whose texts (photos, videos, keywords) are being handled one at a time, at most
  // INBOUND_CONCURRENCY: a video converting for seconds holds up only its own sender's texts, while
  // the next batches store everyone else's.
  const handling = new Set<Promise<void>>();
  const takeAndHandle = async (): Promise<number> => {
    const batch = await takeInboundBatch(ctx, options, stopping.signal, Math.max(0, ctx.config.INBOUND_CONCURRENCY - handling.size));
    for (const sender of batch.waiting) {
      const task: Promise<void> = handleSender(ctx, options, stopping.signal, sender, batch.facts)
        .then((released) => releaseMessages(ctx.db, 'inbound', released))
        .catch(options.onError)
        .finally(() => {
          handling.delete(task);
          // A sender is free: texts left due for want of one can be taken now.
          inbound.kick();
        });
      handling.add(task);
    }
    return batch.moved;
  };
  // Inbound goes on while a claim moves anything (a claim may take fewer than it looked at:
  // senders held elsewhere), also while webhooks keep arriving: a batch is a few statements.
  const inbound = loop(takeAndHandle, 1);
  // One loop per channel (outbox/channels.ts): each at its own pace, and a slow SMTP server
  // never holds up a text.
  const outbound = channelsWithPacers(ctx, options).map(([channel, pacer]) => ({
    wakeOn: channel.wakeOn,
    loop: loop(() => channel.sweep(ctx, pacer, { signal: stopping.signal, abortSends: abortSends.signal }), channel.fullSweep),
  }));
  // A wake-up usually comes from inside a transaction: give it a moment to commit. One timer
  // per cause at a time, however many texts arrive meanwhile.
  const wakeTimers: Partial<Record<WakeCause, NodeJS.Timeout>> = {};
  const unsubscribe = onWake((cause) => {
    wakeTimers[cause] ??= setTimeout(() => {
      wakeTimers[cause] = undefined;
      if (cause === 'inbound') inbound.kick();
      for (const o of outbound) if (o.wakeOn === cause) o.loop.kick();
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
      await Promise.all([inbound.stop(), ...outbound.map((o) => o.loop.stop())]);
      // Senders under way see the stop and give their remaining texts back.
      while (handling.size > 0) await Promise.all([...handling]);
      clearTimeout(abortTimer);
    },
  };
}
