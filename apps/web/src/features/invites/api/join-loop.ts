import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { JoinAnswer, JoinLoopInput } from '@loop/shared/loops';
import { api } from '@/lib/api-client';

/** POST /api/invites/{code}/join, without the session cookie (docs/product.md#api-calls): the phone number decides who joins. */
export function joinLoop(code: string, input: JoinLoopInput): Promise<JoinAnswer> {
  return api.post<JoinAnswer>(`/api/invites/${encodeURIComponent(code)}/join`, input, { credentials: 'omit' });
}

export function useJoinLoop(code: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: JoinLoopInput) => joinLoop(code, input),
    // A signed-in person may have joined a Loop of their own: read their Loops again.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['loops'] }),
  });
}
