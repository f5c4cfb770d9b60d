import type { MessagingContext } from '../messaging/context';
import { SEND_ABORT_AFTER_STOP_MS } from '../messaging/provider';
import { CHANNELS } from '../outbox/channels';
import type { ChannelAdapter } from '../outbox/channel';
import type { Pacer } from '../outbox/pacer';
import { onWake, type WakeCause } from '../messaging/worker-signal';
import { inboundHandling, type InboundOptions } from './inbound-handling';

export interface WorkerOptions extends InboundOptions {
  /** A channel's pace in place of its own (channel.createPacer), by channel name (outbox/channels.ts). */
  pacers?: Partial<Record<string, Pacer>>;
}

/** Each registered channel with its pace: the one given in `options`, else its own. */
function channelsWithPacers(ctx: MessagingContext, options: WorkerOptions): [ChannelAdapter, Pacer][] {
  return CHANNELS.map((channel) => [channel, options.pacers?.[channel.name] ?? channel.createPacer(ctx)]);
}

/**
 * Works until nothing is due: for tests and scripts that want every queued text handled now,
 * without timers. Inbound runs the worker's own loop (inboundHandling) until it takes nothing and
 * no sender is under way. Rows scheduled for later (backoff) wait until the clock reaches them.
 */
export async function sweepUntilIdle(ctx: MessagingContext, options: WorkerOptions = {}): Promise<{ inbound: number; outbound: number }> {
  const channels = channelsWithPacers(ctx, options);
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
    let outbound = 0;
    for (const [channel, pacer] of channels) outbound += await channel.sweep(ctx, pacer, {});
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
      await inboundLoop.idle();
      clearTimeout(abortTimer);
    },
  };
}
