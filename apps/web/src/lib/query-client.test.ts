import { describe, expect, it } from 'vitest';
import { currentUserQueryOptions } from './current-user';
import { createQueryClient } from './query-client';

describe('query client', () => {
  it('never refetches on its own and never retries (docs/product.md#limits-and-timings)', () => {
    const { queries, mutations } = createQueryClient().getDefaultOptions();
    expect(queries).toMatchObject({ staleTime: Infinity, refetchOnWindowFocus: false, retry: false });
    expect(queries?.refetchInterval).toBeUndefined();
    expect(mutations).toMatchObject({ retry: false });
  });

  it('never caches the current user', () => {
    expect(currentUserQueryOptions()).toMatchObject({ staleTime: 0, gcTime: 0 });
  });
});
