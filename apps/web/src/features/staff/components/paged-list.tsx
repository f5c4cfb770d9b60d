import type { InfiniteData } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Button } from '@/components/ui/button';
import { toastError } from '@/components/ui/use-toast';
import { errorText } from '@/lib/api-client';
import type { Page } from '../api/paged-list';

/** What a paged admin list (an infinite query of pages) shows. */
interface PagedList<T> {
  data: InfiniteData<Page<T>> | undefined;
  error: Error | null;
  errorUpdatedAt: number;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** The rows of a paged admin list loaded so far and how many it has in all; a failed load is toasted (`failure` when the server gives no reason). */
export function usePagedRows<T>(list: PagedList<T>, failure: string): { rows: T[]; total: number } {
  useEffect(() => {
    if (list.error) toastError(errorText(list.error), failure);
  }, [list.error, list.errorUpdatedAt, failure]);
  return { rows: list.data?.pages.flatMap((page) => page.items) ?? [], total: list.data?.pages[0]?.total ?? 0 };
}

/** "Load more" under a paged admin list, while it has more pages. */
export function LoadMoreButton({ list }: { list: PagedList<unknown> }) {
  if (!list.hasNextPage) return null;
  return (
    <div className="mt-4 flex justify-center">
      <Button variant="outline" disabled={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()}>
        {list.isFetchingNextPage ? 'Loading...' : 'Load more'}
      </Button>
    </div>
  );
}
