import { PAGE_HEADERS } from '@loop/shared/admin';
import { api } from '@/lib/api-client';

/** One page of an admin list, and where the next one is (from the X-Next-Page header). */
export interface Page<T> {
  items: T[];
  total: number;
  nextPage: number | null;
}

export async function getPage<T>(path: string, params: URLSearchParams): Promise<Page<T>> {
  const { data, headers } = await api.getWithHeaders<T[]>(`${path}?${params.toString()}`);
  const next = Number(headers.get(PAGE_HEADERS.nextPage));
  const total = Number(headers.get(PAGE_HEADERS.total));
  return {
    items: data,
    total: Number.isFinite(total) ? total : data.length,
    nextPage: Number.isInteger(next) && next > 0 ? next : null,
  };
}

export function nextPageOf<T>(page: Page<T>): number | undefined {
  return page.nextPage ?? undefined;
}
