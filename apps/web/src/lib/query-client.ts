import { QueryClient } from '@tanstack/react-query';
import { currentUserQueryKey } from './current-user';

/**
 * docs/product.md#limits-and-timings: data never goes stale on its own, no refetch on window focus, no polling, no
 * retry. Queries that need fresher data (the current user) say so in their own options.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: false },
      mutations: { retry: false },
    },
  });
}

/**
 * After a change to a Loop or a newsletter by its owner or staff, everything read before may be
 * out of date: staff's lists and details, the Loop's own pages, a newsletter's preview. Only what
 * is on screen refetches now; the rest refetches when it next shows. The session is kept.
 */
export function refreshAfterLoopChange(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });
}
