import { QueryClient } from '@tanstack/react-query';

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
