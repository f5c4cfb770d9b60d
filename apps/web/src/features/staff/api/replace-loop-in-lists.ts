import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { AdminLoop } from '@loop/shared/admin';
import { staffKeys } from './staff-keys';
import type { Page } from './paged-list';

/** Shows a changed Loop in every loaded list at once, before the refetch confirms it. */
export function replaceLoopInLists(queryClient: QueryClient, loop: AdminLoop): void {
  queryClient.setQueriesData<InfiniteData<Page<AdminLoop>>>({ queryKey: staffKeys.loopLists() }, (data) =>
    data
      ? {
          ...data,
          pages: data.pages.map((page) => ({
            ...page,
            items: page.items.map((item) => (item.id === loop.id ? { ...item, ...loop } : item)),
          })),
        }
      : data,
  );
}
