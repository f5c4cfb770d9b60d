/**
 * Query keys of the loops feature. Every detail key starts with the list key, so invalidating
 * `loopsQueryKey` refetches the list and every open Loop after a change (SPEC §7).
 */
export const loopsQueryKey = ['loops'] as const;

export function loopQueryKey(id: number) {
  return [...loopsQueryKey, id] as const;
}
