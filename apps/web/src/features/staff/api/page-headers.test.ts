import { describe, expect, it } from 'vitest';
import { nextPageOf, toPage } from './page-headers';

describe('toPage', () => {
  it('reads the total, the next page number and its cursor', () => {
    const page = toPage([1, 2], new Headers({ 'X-Total-Count': '5', 'X-Next-Page': '2', 'X-Next-Cursor': 'abc_-' }));
    expect(page).toEqual({ items: [1, 2], total: 5, next: { page: 2, cursor: 'abc_-' } });
    expect(nextPageOf(page)).toEqual({ page: 2, cursor: 'abc_-' });
  });

  it('follows page numbers from a server that gives no cursor', () => {
    expect(toPage([1], new Headers({ 'X-Total-Count': '3', 'X-Next-Page': '2' })).next).toEqual({ page: 2 });
  });

  it('has no next page on the last page, and counts the items when there is no total', () => {
    const page = toPage(['a'], new Headers());
    expect(page).toEqual({ items: ['a'], total: 1, next: null });
    expect(nextPageOf(page)).toBeUndefined();
  });
});
