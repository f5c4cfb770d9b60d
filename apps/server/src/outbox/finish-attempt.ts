import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { messages } from '../db/schema';
import type { Clock } from '../lib/clock';
import type { MessageRow } from '../messaging/context';

/**
 * Updates a row this process still holds (claimed by this attempt, not taken over since). The row
 * is no longer in doubt (decision 0064) unless `values` says so: this attempt's outcome is known.
 */
export async function finishAttempt(db: Db, row: MessageRow, values: Partial<typeof messages.$inferInsert>): Promise<void> {
  await db
    .update(messages)
    .set({ nextAttemptAt: null, inDoubtSince: null, ...values, updatedAt: sql`now()` })
    .where(and(eq(messages.id, row.id), eq(messages.status, 'sending'), eq(messages.attempts, row.attempts)));
}

/**
 * A failed attempt of a text or an e-mail: queued again after the backoff while `retry` holds and
 * attempts remain (the error saying which attempt it was), else failed with the error.
 */
export function retryOrFail(
  ctx: { db: Db; config: Pick<Config, 'SEND_MAX_ATTEMPTS' | 'SEND_RETRY_BASE_SECONDS'>; clock: Clock },
  row: MessageRow,
  error: string,
  retry: boolean,
  /** Columns to set besides (the provider could not be asked about an attempt in doubt: it stays in doubt). */
  keep: Partial<typeof messages.$inferInsert> = {},
): Promise<void> {
  const { config } = ctx;
  if (retry && row.attempts < config.SEND_MAX_ATTEMPTS) {
    const delayMs = retryDelayMs(config.SEND_RETRY_BASE_SECONDS, row.attempts);
    return finishAttempt(ctx.db, row, {
      ...keep,
      status: 'queued',
      nextAttemptAt: new Date(ctx.clock().getTime() + delayMs),
      error: `${error} (attempt ${row.attempts} of ${config.SEND_MAX_ATTEMPTS})`,
    });
  }
  return finishAttempt(ctx.db, row, { status: 'failed', error });
}

/** How long a retryable failure waits before attempt `attempts + 1`: the base, doubled per attempt. */
export function retryDelayMs(baseSeconds: number, attempts: number): number {
  return baseSeconds * 1000 * 2 ** (attempts - 1);
}
