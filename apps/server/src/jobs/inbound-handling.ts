import { eq, sql } from 'drizzle-orm';
import { toE164 } from '@loop/shared/phone';
import type { DbOrTx } from '../db/client';
import { messages } from '../db/schema';
import { claimInbound, leaseInbound, senderOf, takeInbound } from '../messaging/claim-messages';
import type { MessageRow, MessagingContext } from '../messaging/context';
import type { FetchMediaOptions } from '../messaging/fetch-media';
import { retryDelayMs } from '../outbox/finish-attempt';
import { releaseMessages } from '../outbox/release-messages';
import { applyOutcomes, planText, type FastText } from '../services/inbound/apply-outcome/apply-outcome';
import type { Outcome } from '../services/inbound/decide-inbound';
import { handleInbound } from '../services/inbound/handle-inbound';
import { inboundSettings } from '../services/inbound/inbound-text';
import { readSenderFacts, type HeldFacts, type SenderFacts } from '../services/inbound/sender-facts';

/** The oldest due texts a claim looks at; it takes those of the senders it can have. */
const INBOUND_BATCH = 500;
const LEASE_MS = 2 * 60_000;

export interface InboundOptions {
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
  /** What the batch decided for each sender's first leased text, from the facts above: not decided again. */
  decided: Map<number, Outcome>;
}

/**
 * The worker's inbound loop, the one production runs and sweepUntilIdle drives: `takeAndHandle`
 * takes a batch (takeInboundBatch) and starts handling its leased senders in the background, at
 * most INBOUND_CONCURRENCY at once: a video converting for seconds holds up only its own sender's
 * texts, while the next batches store everyone else's. `onFree` hears when a sender is done
 * (texts left due for want of one can be taken now); `idle` waits for every sender under way.
 */
export function inboundHandling(
  ctx: MessagingContext,
  options: InboundOptions & { onError: (error: unknown) => void; onFree?: () => void },
  signal?: AbortSignal,
) {
  const handling = new Set<Promise<void>>();
  const takeAndHandle = async (): Promise<{ taken: number; moved: number }> => {
    const batch = await takeInboundBatch(ctx, options, signal, Math.max(0, ctx.config.INBOUND_CONCURRENCY - handling.size));
    for (const sender of batch.waiting) {
      const task: Promise<void> = handleSender(ctx, options, signal, sender, batch)
        .then((released) => releaseMessages(ctx.db, 'inbound', released))
        .catch(options.onError)
        .finally(() => {
          handling.delete(task);
          options.onFree?.();
        });
      handling.add(task);
    }
    return { taken: batch.taken, moved: batch.moved };
  };
  return {
    takeAndHandle,
    /** Senders being handled now. */
    get busy(): number {
      return handling.size;
    },
    /** Waits until one sender under way is done. */
    next: () => Promise.race(handling),
    idle: async () => {
      while (handling.size > 0) await Promise.all([...handling]);
    },
  };
}

/**
 * Takes due inbound texts by sender (takeInbound: no other claim holds a sender's texts
 * meanwhile) in one transaction that decides each sender's texts in order (planText) and applies
 * the fast ones (no keyword, photo or invitation answer), up to its first other one, set-wise for
 * the whole batch (applyOutcomes), and leases the rest of at most `maxSenders` senders, with what
 * was decided for that first other one; the others' stay due for a later claim (their fast texts
 * after it too: a sender's texts never overtake each other). The leased ones are for
 * handleSender, side by side by sender, each sender's texts one after the other in the order they
 * were stored (decision 0016). Should that transaction fail, the batch is claimed again and every
 * text of it is to be handled a text at a time, each failing alone.
 */
async function takeInboundBatch(
  ctx: MessagingContext,
  options: InboundOptions,
  signal: AbortSignal | undefined,
  maxSenders: number,
): Promise<InboundBatch> {
  const now = ctx.clock();
  const leaseUntil = new Date(now.getTime() + LEASE_MS);
  const settings = inboundSettings(ctx.config);
  try {
    return await ctx.db.transaction(async (tx) => {
      const rows = await takeInbound(tx, { now, limit: INBOUND_BATCH });
      const { bySender, facts } = await sendersOf(tx, rows, now);
      const fast: FastText[] = [];
      const rest: number[] = [];
      const decided = new Map<number, Outcome>();
      let restSenders = 0;
      for (const [phone, texts] of bySender) {
        const senderFacts = facts.get(phone);
        for (const [index, row] of texts.entries()) {
          const plan = planText(row, senderFacts, settings);
          if (plan.fast) {
            fast.push(plan.fast);
            continue;
          }
          if (restSenders++ < maxSenders) {
            rest.push(...texts.slice(index).map((r) => r.id));
            if (plan.outcome) decided.set(row.id, plan.outcome);
          }
          break;
        }
      }
      // Stopping: nothing is leased, the texts stay due for the next process.
      if (signal?.aborted) return { taken: 0, moved: 0, waiting: [], facts, decided: new Map() };
      await applyOutcomes(tx, fast);
      const leased = await leaseInbound(tx, rest, leaseUntil);
      return { taken: rows.length, moved: fast.length + leased.length, waiting: [...groupBySender(leased)], facts, decided };
    });
  } catch (error) {
    options.onBatchError?.(error);
    const rows = await claimInbound(ctx.db, { now, leaseUntil, limit: INBOUND_BATCH });
    const { bySender, facts } = await sendersOf(ctx.db, rows, now);
    return { taken: rows.length, moved: rows.length, waiting: [...bySender], facts, decided: new Map() };
  }
}

/** Handles one sender's leased texts in order; answers those given back because the process is stopping. */
async function handleSender(
  ctx: MessagingContext,
  options: InboundOptions,
  signal: AbortSignal | undefined,
  [phone, texts]: [string, MessageRow[]],
  batch: Pick<InboundBatch, 'facts' | 'decided'>,
): Promise<number[]> {
  const held: HeldFacts = { facts: batch.facts.get(phone) };
  for (const [index, row] of texts.entries()) {
    // Stopping: the rest go back for the next process instead of waiting out their lease.
    if (signal?.aborted) return texts.slice(index).map((r) => r.id);
    const decided = batch.decided.get(row.id);
    await handleInbound(ctx, row, {
      ...(options.fetchOptions ? { fetchOptions: options.fetchOptions } : {}),
      ...(decided ? { decided } : {}),
      held,
    }).catch((error: unknown) => retryInbound(ctx, row, error));
  }
  return [];
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
