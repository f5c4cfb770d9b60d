import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminStats } from '@loop/shared/admin';
import { api } from '@/lib/api-client';
import { adminKeys } from './admin-keys';

/** GET /api/admin/stats: totals and the cumulative daily growth of Loops and members. */
export function getAdminStats(): Promise<AdminStats> {
  return api.get<AdminStats>('/api/admin/stats');
}

export function adminStatsQueryOptions() {
  return queryOptions({ queryKey: adminKeys.stats(), queryFn: getAdminStats, retry: false });
}

export function useAdminStats() {
  return useQuery(adminStatsQueryOptions());
}
