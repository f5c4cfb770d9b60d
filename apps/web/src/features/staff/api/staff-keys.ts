import type { AdminSort } from '@loop/shared/constants';

/** Query keys of staff's screens (their URLs are `/api/admin`): everything starts with "admin". */
export const staffKeys = {
  all: ['admin'] as const,
  stats: () => ['admin', 'stats'] as const,
  loopLists: () => ['admin', 'loops'] as const,
  loops: (filters: { search: string; sort: AdminSort }) => ['admin', 'loops', filters] as const,
  newsletters: () => ['admin', 'newsletters'] as const,
  loop: (id: number) => ['admin', 'loop', id] as const,
};

/** docs/product.md#limits-and-timings: staff's Loop and newsletter lists are fresh for one second. */
export const STAFF_LIST_STALE_TIME = 1000;
