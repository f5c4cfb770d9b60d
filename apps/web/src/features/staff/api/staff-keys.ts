import type { QueryClient } from '@tanstack/react-query';
import type { AdminSort } from '@loop/shared/constants';
import { currentUserQueryKey } from '@/lib/current-user';

/** Query keys of the admin feature: everything starts with "admin". */
export const adminKeys = {
  all: ['admin'] as const,
  stats: () => ['admin', 'stats'] as const,
  loopLists: () => ['admin', 'loops'] as const,
  loops: (filters: { search: string; sort: AdminSort }) => ['admin', 'loops', filters] as const,
  newsletters: () => ['admin', 'newsletters'] as const,
  loop: (id: number) => ['admin', 'loop', id] as const,
  newsletter: (loopId: number, newsletterId: number) => ['admin', 'newsletter', loopId, newsletterId] as const,
};

/** docs/product.md#limits-and-timings: the admin Loop and newsletter lists are fresh for one second. */
export const ADMIN_LIST_STALE_TIME = 1000;

/**
 * After a staff change, everything read before may be out of date: the admin lists and details,
 * and the staff member's own Loop pages (they may be in the Loop). Only what is on screen
 * refetches now; the rest refetches when it next shows.
 */
export function refreshAfterStaffChange(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
}
