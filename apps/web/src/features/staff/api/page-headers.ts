import { PAGE_HEADERS } from '@loop/shared/admin';

/**
 * Where a page starts: its number, and the X-Next-Cursor of the page before it when there is one
 * (decision 0007: the server then reads on from the previous page's last row instead of skipping
 * rows, so the hundredth page costs what the first does).
 */
export interface PageParam {
  page: number;
  cursor?: string;
}

export const FIRST_PAGE: PageParam = { page: 1 };

/** One page of an admin list, and where the next one is (X-Next-Page and X-Next-Cursor). */
export interface Page<T> {
  items: T[];
  total: number;
  next: PageParam | null;
}

/** A page from the answer's array and its paging headers. */
export function toPage<T>(items: T[], headers: Headers): Page<T> {
  const next = Number(headers.get(PAGE_HEADERS.nextPage));
  const cursor = headers.get(PAGE_HEADERS.nextCursor);
  const total = Number(headers.get(PAGE_HEADERS.total) ?? Number.NaN);
  return {
    items,
    total: Number.isFinite(total) ? total : items.length,
    next: Number.isInteger(next) && next > 0 ? { page: next, ...(cursor ? { cursor } : {}) } : null,
  };
}

export function nextPageOf<T>(page: Page<T>): PageParam | undefined {
  return page.next ?? undefined;
}
