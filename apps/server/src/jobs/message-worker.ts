import { eq, sql } from 'drizzle-orm';
import { messages } from '../db/schema';
import { claimMessages } from '../messaging/claim-messages';
import type { MessageRow, MessagingContext } from '../messaging/context';
import type { FetchMediaOptions } from '../messaging/fetch-media';
import { createPacer, type Pacer } from '../messaging/pacer';
import { processInbound } from '../messaging/process-inbound';
import { sendOutbound } from '../messaging/send-outbound';
import { onWake, textsArriving } from '../messaging/worker-signal';

const INBOUND_BATCH = 25;
const OUTBOUND_BATCH = 50;
const LEASE_MS = 2 * 60_000;

export interface WorkerOptions {
  pacer?: Pacer;
  fetchOptions?: FetchMediaOptions;
}

/** Handles due inbound texts once; returns how many it claimed. */
export async function sweepInbound(ctx: MessagingContext, options: WorkerOptions = {}): Promise<number> {
  const now = ctx.clock();
  const rows = await claimMessages(ctx.db, { direction: 'inbound', now, leaseUntil: new Date(now.getTime() + LEASE_MS), limit: INBOUND_BATCH });
  // One at a time: during a burst of webhooks the worker takes one connection's share of the
  // database, and storing new texts (the part Twilio waits for) keeps the rest.
  for (const row of rows) {
    await processInbound(ctx, row, options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}).catch((error: unknown) =>
      retryInbound(ctx, row, error),
    );
  }
  return rows.length;
}

/**
 * Sends due outbound texts once. Texts to different phones go side by side (the pacer hands out
 * each sender's time slots in order, so concurrency never breaks the pace); texts to one phone
 * go in order, so a welcome never arrives after the reminder queued behind it.
 */
export async function sweepOutbound(ctx: MessagingContext, pacer: Pacer): Promise<number> {
  const now = ctx.clock();
  const { SEND_RATE_PER_SECOND: rate } = ctx.config;
  // A paced batch spans about five seconds, so the pause between batches costs ~1% of the pace.
  const batch = rate > 0 ? Math.max(OUTBOUND_BATCH, Math.ceil(rate * 5)) : OUTBOUND_BATCH;
  // Long enough for a paced batch to finish before another process may take the rows again.
  const lease = Math.max(LEASE_MS, rate > 0 ? (batch / rate) * 2000 : 0);
  const rows = await claimMessages(ctx.db, { direction: 'outbound', now, leaseUntil: new Date(now.getTime() + lease), limit: batch });
  const byPhone = new Map<string, MessageRow[]>();
  for (const row of rows) byPhone.set(row.toAddress, [...(byPhone.get(row.toAddress) ?? []), row]);
  await Promise.all(
    [...byPhone.values()].map(async (group) => {
      for (const row of group) await sendOutbound(ctx, row, pacer);
    }),
  );
  return rows.length;
}

/**
 * Works until nothing is due: for tests and scripts that want every queued text handled now,
 * without timers. Rows scheduled for later (backoff) wait until the clock reaches them.
 */
export async function processPending(ctx: MessagingContext, options: WorkerOptions = {}): Promise<{ inbound: number; outbound: number }> {
  const pacer = options.pacer ?? createPacer(ctx.config.SEND_RATE_PER_SECOND);
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
  const pacer = options.pacer ?? createPacer(ctx.config.SEND_RATE_PER_SECOND);
  let stopped = false;
  const loops = [
    loop(() => yieldingWhileBusy(() => sweepInbound(ctx, options)), INBOUND_BATCH),
    loop(() => sweepOutbound(ctx, pacer), OUTBOUND_BATCH),
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
      clearTimeout(wakeTimer);
      unsubscribe();
      await Promise.all(loops.map((l) => l.stop()));
    },
  };
}
