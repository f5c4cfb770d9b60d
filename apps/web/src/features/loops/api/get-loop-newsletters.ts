import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoopNewsletters } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { loopQueryKey } from './loop-keys';

/** GET /api/loops/{id}/newsletters: sent newsletters, what is due next, and the paused state. */
export function getLoopNewsletters(id: number): Promise<LoopNewsletters> {
  return api.get<LoopNewsletters>(`/api/loops/${id}/newsletters`);
}

export function loopNewslettersQueryOptions(id: number) {
  // Under the Loop's key: a change to the Loop (its schedule) reads this again.
  return queryOptions({ queryKey: [...loopQueryKey(id), 'newsletters'] as const, queryFn: () => getLoopNewsletters(id) });
}

export function useLoopNewsletters(id: number) {
  return useQuery(loopNewslettersQueryOptions(id));
}
