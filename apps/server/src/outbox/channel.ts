import type { MessagingContext } from '../messaging/context';
import type { WakeCause } from '../messaging/worker-signal';
import type { MessageChannel } from './claim-outbound';
import type { Pacer } from './pacer';

/** What a channel's sweep is given by the worker. */
export interface SweepOptions {
  /** Aborts at stop: rows waiting for their turn are given back, sends under way finish... */
  signal?: AbortSignal | undefined;
  /**
   * ...unless the provider has not answered SEND_ABORT_AFTER_STOP_MS into the stop: then this
   * aborts them, and their rows are given back too (the same 3-second rule for every channel).
   */
  abortSends?: AbortSignal | undefined;
}

/**
 * A channel adapter (decision 0063): one way out of the outbox (SMS and WhatsApp, e-mail; a voice
 * call or a letter next). It owns its sender, its pace, its retry rules and what a provider's
 * answer means; the outbox's shared parts do the rest and know no channel's details: the claim
 * (claimDue: exactly once across processes, leased, awaited rows before bulk), the rule for who
 * may be reached, quiet hours, recording an outcome until the database takes it (record-outcome.ts)
 * and asking the provider before sending again a row whose last attempt may have reached it.
 * A new channel is a folder beside texts/ and email/ and one line in channels.ts.
 */
export interface ChannelAdapter {
  /** Its name in logs, metrics and docs. */
  readonly name: string;
  /** The `messages.channel` values it sends: the shared claim takes only these rows for it. */
  readonly channels: readonly MessageChannel[];
  /** The wake-up hint (wakeMessageWorker) that starts its sweep before the next poll. */
  readonly wakeOn: WakeCause;
  /** A sweep that claimed at least this many may have left more: the worker sweeps again at once. */
  readonly fullSweep: number;
  /** Its pace, shared by every process through sender_paces (0 per second: unpaced). */
  createPacer(ctx: MessagingContext): Pacer;
  /** Claims due rows of its channels and sends them. Returns how many it claimed (0: nothing due). */
  sweep(ctx: MessagingContext, pacer: Pacer, options: SweepOptions): Promise<number>;
}
