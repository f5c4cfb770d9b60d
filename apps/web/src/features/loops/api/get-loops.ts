import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoopSummary } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** GET /api/loops: the signed-in person's Loops, newest first. */
export function getLoops(): Promise<LoopSummary[]> {
  return api.get<LoopSummary[]>('/api/loops');
}

export function loopsQueryOptions() {
  return queryOptions({ queryKey: loopsQueryKey, queryFn: getLoops });
}

export function useLoops() {
  return useQuery(loopsQueryOptions());
}
