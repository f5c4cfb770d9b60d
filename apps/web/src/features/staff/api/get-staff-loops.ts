import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { ADMIN_PAGE_SIZE, type AdminLoop } from '@loop/shared/admin';
import type { AdminSort } from '@loop/shared/constants';
import { ADMIN_LIST_STALE_TIME, adminKeys } from './admin-keys';
import { FIRST_PAGE, getPage, nextPageOf, type Page, type PageParam } from './paged-list';

export interface AdminLoopFilters {
  search: string;
  sort: AdminSort;
}

/** GET /api/admin/loops: one page of every Loop. (docs/product.md#input-rules) The search is trimmed and sent only when not empty. */
export function getAdminLoops(filters: AdminLoopFilters, at: PageParam): Promise<Page<AdminLoop>> {
  const params = new URLSearchParams();
  const search = filters.search.trim();
  if (search) params.set('search', search);
  params.set('sort', filters.sort);
  params.set('pageSize', String(ADMIN_PAGE_SIZE));
  return getPage<AdminLoop>('/api/admin/loops', params, at);
}

export function adminLoopsQueryOptions(filters: AdminLoopFilters) {
  const normalized = { search: filters.search.trim(), sort: filters.sort };
  return infiniteQueryOptions({
    queryKey: adminKeys.loops(normalized),
    queryFn: ({ pageParam }) => getAdminLoops(normalized, pageParam),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextPageOf,
    staleTime: ADMIN_LIST_STALE_TIME,
  });
}

/** More pages load on demand (`fetchNextPage`); a new search keeps the old rows until it answers. */
export function useAdminLoops(filters: AdminLoopFilters) {
  return useInfiniteQuery({ ...adminLoopsQueryOptions(filters), placeholderData: keepPreviousData });
}
