import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import type { AdminNewsletter } from '@loop/shared/admin';
import { STAFF_LIST_STALE_TIME, staffKeys } from './staff-keys';
import { FIRST_PAGE, getPage, nextPageOf, type Page, type PageParam } from './paged-list';

// A dashboard section, not the whole archive: ten at a time, more on demand.
const NEWSLETTER_PAGE_SIZE = 10;

/** GET /api/admin/newsletters: newsletters and sneak peeks of every Loop, newest first. */
export function getStaffNewsletters(at: PageParam): Promise<Page<AdminNewsletter>> {
  const params = new URLSearchParams({ pageSize: String(NEWSLETTER_PAGE_SIZE) });
  return getPage<AdminNewsletter>('/api/admin/newsletters', params, at);
}

export function staffNewslettersQueryOptions() {
  return infiniteQueryOptions({
    queryKey: staffKeys.newsletters(),
    queryFn: ({ pageParam }) => getStaffNewsletters(pageParam),
    initialPageParam: FIRST_PAGE,
    getNextPageParam: nextPageOf,
    staleTime: STAFF_LIST_STALE_TIME,
  });
}

export function useStaffNewsletters() {
  return useInfiniteQuery(staffNewslettersQueryOptions());
}
