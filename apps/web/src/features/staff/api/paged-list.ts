import { api } from '@/lib/api-client';
import { toPage, type Page, type PageParam } from './page-headers';

export { FIRST_PAGE, nextPageOf, type Page, type PageParam } from './page-headers';

/** GET one page of an admin list: by cursor when the previous page gave one, else by number. */
export async function getPage<T>(path: string, params: URLSearchParams, at: PageParam): Promise<Page<T>> {
  params.set('page', String(at.page));
  if (at.cursor) params.set('cursor', at.cursor);
  const { data, headers } = await api.getWithHeaders<T[]>(`${path}?${params.toString()}`);
  return toPage(data, headers);
}
