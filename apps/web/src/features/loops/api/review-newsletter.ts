import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { GenerateNewsletterAnswer, ScheduledNewsletterAnswer, SendNewsletterAnswer } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/current-user';

/** What the owner (or staff) does with the coming issue's draft (decision 0040). */
export type ReviewAction =
  { action: 'approve' } | { action: 'unapprove' } | { action: 'skip' } | { action: 'send' } | { action: 'move'; sendAt: string };

/**
 * POST /api/loops/{loopId}/newsletters/{newsletterId}/approve | unapprove | send | move | skip. Approving a
 * draft whose time has passed sends it at once (its answer counts the texts).
 */
export function reviewNewsletter(
  loopId: number,
  newsletterId: number,
  input: ReviewAction,
): Promise<SendNewsletterAnswer | ScheduledNewsletterAnswer> {
  const url = `/api/loops/${loopId}/newsletters/${newsletterId}/${input.action}`;
  return input.action === 'move' ? api.post(url, { sendAt: input.sendAt }) : api.post(url);
}

/** A draft changed: the Loop's pages, and the editor's and staff's copies of it, read again. */
const refresh = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== currentUserQueryKey[0] });

export function useReviewNewsletter(loopId: number, newsletterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ReviewAction) => reviewNewsletter(loopId, newsletterId, input),
    // After a pending save of the same draft, never before it.
    scope: { id: `newsletter-${newsletterId}` },
    onSettled: () => void refresh(queryClient),
  });
}

/** POST /api/loops/{id}/newsletters/generate: the coming issue's draft, written (again) from the updates so far. */
export function useWriteDraft(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<GenerateNewsletterAnswer>(`/api/loops/${loopId}/newsletters/generate`),
    onSettled: () => void refresh(queryClient),
  });
}
