import type { DeliveryCounts } from '@loop/shared/admin';

/**
 * Delivery counts of newsletters sent long enough ago that their texts have their final status
 * (decision 0007), by newsletter id, each kept until `until` (ms). One per app (AppContext), so
 * nothing is kept at module level.
 */
export type SettledCounts = Map<number, { delivery: DeliveryCounts; until: number }>;

export function createSettledCounts(): SettledCounts {
  return new Map();
}
