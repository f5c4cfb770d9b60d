import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LoopDetail } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopQueryKey } from './loop-keys';

/** GET /api/loops/{id}: the Loop with its members and updates, and the viewer's role. */
export function getLoop(id: number): Promise<LoopDetail> {
  return api.get<LoopDetail>(`/api/loops/${id}`);
}

export function loopQueryOptions(id: number) {
  return queryOptions({ queryKey: loopQueryKey(id), queryFn: () => getLoop(id) });
}

export function useLoop(id: number) {
  return useQuery(loopQueryOptions(id));
}
