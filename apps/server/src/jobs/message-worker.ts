import { sendClaimedEmails } from '../mail/send-emails';
import { claimOutbound, claimOutboundEmails } from '../messaging/claim-messages';
import type { MessagingContext } from '../messaging/context';
import { createPacer, type Pacer } from '../messaging/pacer';
import { deferQuietTexts } from '../messaging/quiet-hours';
import { SEND_ABORT_AFTER_STOP_MS } from '../messaging/provider';
import { sendDueTexts } from '../messaging/send-outbound';
import { onWake, type WakeCause } from '../messaging/worker-signal';
import { inboundHandling, type InboundOptions } from './inbound-handling';

const OUTBOUND_BATCH = 50;
const UNPACED_BATCH = 500;
const LEASE_MS = 2 * 60_000;

export interface WorkerOptions extends InboundOptions {
  pacer?: Pacer;
  /** The pace of e-mail (MAIL_RATE_PER_SECOND), shared by every process through sender_paces. */
  mailPacer?: Pacer;
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
  const claim = async (limit: number) => {
    const now = ctx.clock();
    // Texts that would land in their recipient's quiet hours go back to wait (decision 0037); a
    // full claim of only those claims again, so they never hide texts that may go now.
    for (;;) {
      const rows = await claimOutbound(ctx.db, { now, leaseUntil: new Date(now.getTime() + lease), limit });
      const go = await deferQuietTexts(ctx.db, rows, now, ctx.config.QUIET_HOURS);
      if (go.length > 0 || rows.length < limit) return go;
    }
  };
  // Paced, the first claim is a second's worth: the pace starts sooner, the rest follows at once.
  const firstBatch = rate > 0 ? Math.max(10, Math.ceil(rate)) : batch;
  return sendDueTexts(ctx, { claim, batch, firstBatch, pacer, signal, abortSends });
}

/** E-mails a claim takes unpaced; paced, five seconds' worth. */
const EMAIL_BATCH = 200;

/**
 * Sends due e-mail rows (decision 0047): claimed a batch at a time (exactly once across
 * processes, like texts), paced by MAIL_RATE_PER_SECOND for all processes together
 * (mailPacer), sent by ctx.mailer. Returns how many it claimed.
 */
export async function sweepEmails(ctx: MessagingContext, mailPacer: Pacer, signal?: AbortSignal): Promise<number> {
  const rate = ctx.config.MAIL_RATE_PER_SECOND;
  const limit = rate > 0 ? Math.max(10, Math.min(EMAIL_BATCH, Math.ceil(rate * 5))) : EMAIL_BATCH;
  // Long enough for a paced batch to go out before another process may take the rows again.
  const lease = Math.max(LEASE_MS, rate > 0 ? (limit / rate) * 2000 : 0);
  const now = ctx.clock();
  const rows = await claimOutboundEmails(ctx.db, { now, leaseUntil: new Date(now.getTime() + lease), limit });
  if (rows.length === 0) return 0;
  await sendClaimedEmails(ctx, rows, mailPacer, signal);
  return rows.length;
}

/**
 * Works until nothing is due: for tests and scripts that want every queued text handled now,
 * without timers. Inbound runs the worker's own loop (inboundHandling) until it takes nothing and
 * no sender is under way. Rows scheduled for later (backoff) wait until the clock reaches them.
 */
export async function sweepUntilIdle(ctx: MessagingContext, options: WorkerOptions = {}): Promise<{ inbound: number; outbound: number }> {
  const pacer = options.pacer ?? createPacer(ctx.db, ctx.config.SEND_RATE_PER_SECOND);
  const mailPacer = options.mailPacer ?? createPacer(ctx.db, ctx.config.MAIL_RATE_PER_SECOND);
  const failures: unknown[] = [];
  const inboundLoop = inboundHandling(ctx, { ...options, onError: (error) => failures.push(error) });
  const total = { inbound: 0, outbound: 0 };
  for (let round = 0; round < 10_000; round++) {
    let inbound = 0;
    for (;;) {
      const { taken, moved } = await inboundLoop.takeAndHandle();
      inbound += taken;
      if (moved > 0) continue;
      if (inboundLoop.busy === 0) break;
      await inboundLoop.next();
    }
    if (failures.length > 0) throw failures[0];
    const outbound = (await sweepOutbound(ctx, pacer)) + (await sweepEmails(ctx, mailPacer));
    total.inbound += inbound;
    total.outbound += outbound;
    if (inbound === 0 && outbound === 0) return total;
  }
  throw new Error('sweepUntilIdle: still finding work after 10,000 rounds');
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
  const mailPacer = options.mailPacer ?? createPacer(ctx.db, ctx.config.MAIL_RATE_PER_SECOND);
  let stopped = false;
  // Aborted at stop: texts still waiting for their turn are released, sends under way finish...
  const stopping = new AbortController();
  // ...unless the provider has not answered SEND_ABORT_AFTER_STOP_MS later: then they are aborted
  // and released too (a slow Twilio would otherwise hold the stop for its 30 s timeout).
  const abortSends = new AbortController();
  // Senders whose texts (photos, videos, keywords) are handled one at a time, side by side.
  const inboundLoop = inboundHandling(ctx, { ...options, onFree: () => inbound.kick() }, stopping.signal);
  // Inbound goes on while a claim moves anything (a claim may take fewer than it looked at:
  // senders held elsewhere), also while webhooks keep arriving: a batch is a few statements.
  const inbound = loop(async () => (await inboundLoop.takeAndHandle()).moved, 1);
  const outbound = loop(() => sweepOutbound(ctx, pacer, stopping.signal, abortSends.signal), OUTBOUND_BATCH);
  // E-mail apart from texts: its own pace, and a slow SMTP server never holds up a text.
  const email = loop(() => sweepEmails(ctx, mailPacer, stopping.signal), 10);
  const loops = { inbound, outbound, email };
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
      await Promise.all([inbound.stop(), outbound.stop(), email.stop()]);
      // Senders under way see the stop and give their remaining texts back.
      await inboundLoop.idle();
      clearTimeout(abortTimer);
    },
  };
}
