import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { AdminLoopDetail } from '@loop/shared/admin';
import { api } from '@/lib/api-client';
import { staffKeys } from './staff-keys';

/**
 * GET /api/admin/loops/{id}: the Loop with members, updates and newsletters with delivery counts.
 * A large Loop's members come a page at a time (the first ADMIN_DETAIL_MEMBER_LIMIT) unless
 * `allMembers` asks for every one.
 */
export function getStaffLoop(id: number, allMembers = false): Promise<AdminLoopDetail> {
  return api.get<AdminLoopDetail>(`/api/admin/loops/${id}${allMembers ? '?members=all' : ''}`);
}

export function staffLoopQueryOptions(id: number, allMembers = false) {
  return queryOptions({
    queryKey: [...staffKeys.loop(id), allMembers ? 'all-members' : 'first-members'],
    queryFn: () => getStaffLoop(id, allMembers),
    retry: false,
  });
}

/** Showing every member keeps the first page on screen until the rest arrive. */
export function useStaffLoop(id: number, allMembers = false) {
  return useQuery({ ...staffLoopQueryOptions(id, allMembers), placeholderData: keepPreviousData });
}
