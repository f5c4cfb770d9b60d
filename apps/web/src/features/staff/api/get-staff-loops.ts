import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { ADMIN_PAGE_SIZE, type AdminLoop } from '@loop/shared/admin';
import type { AdminSort } from '@loop/shared/constants';
import { STAFF_LIST_STALE_TIME, staffKeys } from './staff-keys';
import { FIRST_PAGE, getPage, nextPageOf, type Page, type PageParam } from './paged-list';

export interface AdminLoopFilters {
  search: string;
  sort: AdminSort;
}

/** GET /api/admin/loops: one page of every Loop. (docs/product.md#input-rules) The search is trimmed and sent only when not empty. */
export function getStaffLoops(filters: AdminLoopFilters, at: PageParam): Promise<Page<AdminLoop>> {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set('search', search);
  params.set('sort', filters.sort);
  params.set('pageSize', String(ADMIN_PAGE_SIZE));
  return getPage<AdminLoop>('/api/admin/loops', params, at);
}

export function staffLoopsQueryOptions(filters: AdminLoopFilters) {
  const normalized = { search: filters.search.trim(), sort: filters.sort };
  return infiniteQueryOptions({
    queryKey: staffKeys.loops(normalized),
    queryFn: ({ pageParam }) => getStaffLoops(normalized, pageParam),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextPageOf,
    staleTime: STAFF_LIST_STALE_TIME,
  });
}

/** More pages load on demand (`fetchNextPage`); a new search keeps the old rows until it answers. */
export function useStaffLoops(filters: AdminLoopFilters) {
  return useInfiniteQuery({ ...staffLoopsQueryOptions(filters), placeholderData: keepPreviousData });
}
