import { queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminStats } from '@loop/shared/admin';
import { api } from '@/lib/api-client';
import { staffKeys } from './staff-keys';

/** GET /api/admin/stats: totals and the cumulative daily growth of Loops and members. */
export function getStaffStats(): Promise<AdminStats> {
  return api.get<AdminStats>('/api/admin/stats');
}

export function staffStatsQueryOptions() {
  return queryOptions({ queryKey: staffKeys.stats(), queryFn: getStaffStats, retry: false });
}

export function useStaffStats() {
  return useQuery(staffStatsQueryOptions());
}
