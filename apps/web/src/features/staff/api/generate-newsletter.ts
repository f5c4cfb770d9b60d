import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { GenerateNewsletterAnswer } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { refreshAfterLoopChange } from '@/lib/query-client';

/** docs/product.md#messages-on-screen: the message when the answer has no newsletter id. */
export const INVALID_GENERATE_ANSWER = 'Invalid response format from server';

/**
 * POST /api/loops/{id}/newsletters/generate: a draft of the updates since the last sent
 * newsletter. Resolves with the new draft's id; an answer without one is an error.
 */
export async function generateNewsletter(loopId: number): Promise<number> {
  const answer = await api.post<Partial<GenerateNewsletterAnswer> | undefined>(`/api/loops/${loopId}/newsletters/generate`);
  const id = answer?.newsletter?.id;
  if (typeof id !== 'number') throw new Error(INVALID_GENERATE_ANSWER);
  return id;
}

export function useGenerateNewsletter(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => generateNewsletter(loopId),
    // Also after an unreadable answer: a draft may have been made all the same.
    onSettled: () => void refreshAfterLoopChange(queryClient),
  });
}
