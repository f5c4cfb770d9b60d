import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SendNewsletterAnswer } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { refreshAfterLoopChange } from '@/lib/query-client';
import { newsletterKeys } from './newsletter-keys';

/** POST /api/loops/{loopId}/newsletters/{newsletterId}/send: texts every opted-in member the link (409 if already sent). */
export function sendNewsletter(loopId: number, newsletterId: number): Promise<SendNewsletterAnswer> {
  return api.post<SendNewsletterAnswer>(`/api/loops/${loopId}/newsletters/${newsletterId}/send`);
}

export function useSendNewsletter(loopId: number, newsletterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendNewsletter(loopId, newsletterId),
    // After a pending save, never before it.
    scope: { id: `newsletter-${newsletterId}` },
    onSuccess: ({ newsletter }) => {
      queryClient.setQueryData(newsletterKeys.preview(loopId, newsletterId), newsletter);
      void refreshAfterLoopChange(queryClient);
    },
  });
}
