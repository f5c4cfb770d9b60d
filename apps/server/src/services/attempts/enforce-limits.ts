import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock';
import { hashToken } from '../../lib/tokens';
import { countAttempts } from './count-attempts';

export interface Limit {
  /** What is counted, e.g. `member-add:account:12`; stored only as a keyed hash. */
  key: string;
  max: number;
  windowMs: number;
  /** The 429's message; `wait` reads "in 23 minutes" or "in 5 hours". */
  message: (wait: string) => string;
}

/**
 * Counts one more against each limit, in the attempt_counts rows every server process shares, and
 * throws a 429 naming when to try again if any is over. Run it inside the change's transaction:
 * a refused change rolls its counts back with it, so only what happened is counted.
 */
export async function enforceLimits(tx: DbOrTx, secret: string, now: Date, limits: readonly Limit[]): Promise<void> {
  const byWindow = new Map<number, Limit[]>();
  for (const limit of limits) byWindow.set(limit.windowMs, [...(byWindow.get(limit.windowMs) ?? []), limit]);
  for (const [windowMs, group] of byWindow) {
    const counts = await countAttempts(
      tx,
      group.map((l) => hashToken(`limit:${l.key}`, secret)),
      now,
      windowMs,
    );
    for (const [i, limit] of group.entries()) {
      const count = counts[i];
      if (count && count.count > limit.max) {
        throw new AppError('too_many_requests', limit.message(waitText(count.windowEndsAt.getTime() - now.getTime())));
      }
    }
  }
}

/** "in 1 minute", "in 23 minutes", "in 5 hours". */
export function waitText(ms: number): string {
  if (ms <= 2 * HOUR_MS) {
    const minutes = Math.max(1, Math.ceil(ms / MINUTE_MS));
    return `in ${minutes} minute${minutes === 1 ? '' : 's'}`;
  }
  return `in ${Math.ceil(ms / HOUR_MS)} hours`;
}
