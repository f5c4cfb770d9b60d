import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SaveNewsletterAnswer } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { refreshAfterLoopChange } from '@/lib/query-client';
import { newsletterKeys } from './newsletter-keys';

/** PUT /api/loops/{loopId}/newsletters/{newsletterId}: the edited Markdown of a draft (409 once sent). */
export function saveNewsletter(loopId: number, newsletterId: number, content: string): Promise<SaveNewsletterAnswer> {
  return api.put<SaveNewsletterAnswer>(`/api/loops/${loopId}/newsletters/${newsletterId}`, { content });
}

export function useSaveNewsletter(loopId: number, newsletterId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (content: string) => saveNewsletter(loopId, newsletterId, content),
    scope: { id: `newsletter-${newsletterId}` },
    onSuccess: ({ newsletter }) => {
      queryClient.setQueryData(newsletterKeys.preview(loopId, newsletterId), newsletter);
      void refreshAfterLoopChange(queryClient);
    },
  });
}
