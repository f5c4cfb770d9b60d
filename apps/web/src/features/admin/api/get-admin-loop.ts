import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminLoopDetail } from '@loop/shared/admin';
import { api } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** GET /api/admin/loops/{id}: the Loop with members, updates and newsletters with delivery counts. */
export function getAdminLoop(id: number): Promise<AdminLoopDetail> {
  return api.get<AdminLoopDetail>(`/api/admin/loops/${id}`);
}

export function adminLoopQueryOptions(id: number) {
  return queryOptions({
    queryKey: adminKeys.loop(id),
    queryFn: () => getAdminLoop(id),
    retry: false,
  });
}

export function useAdminLoop(id: number) {
  return useQuery(adminLoopQueryOptions(id));
}
