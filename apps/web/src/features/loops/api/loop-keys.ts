/**
 * Query keys of the loops feature. Every detail key starts with the list key, so invalidating
 * `loopsQueryKey` refetches the list and every open Loop after a change (docs/product.md#api-calls).
 */
export const loopsQueryKey = ['loops'] as const;

export function loopQueryKey(id: number) {
  return [...loopsQueryKey, id] as const;
}

/** The signed-in person's invitations waiting for an answer (My Loops). */
export const invitationsQueryKey = ['invitations'] as const;
