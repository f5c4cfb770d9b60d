import { queryOptions, useQuery } from '@tanstack/react-query';
import type { NewsletterPreview } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { newsletterKeys } from './newsletter-keys';

/** GET /api/loops/{loopId}/newsletters/{newsletterId}/preview: the newsletter's Markdown and share id. */
export function getNewsletterPreview(loopId: number, newsletterId: number): Promise<NewsletterPreview> {
  return api.get<NewsletterPreview>(`/api/loops/${loopId}/newsletters/${newsletterId}/preview`);
}

export function newsletterPreviewQueryOptions(loopId: number, newsletterId: number) {
  return queryOptions({
    queryKey: newsletterKeys.preview(loopId, newsletterId),
    queryFn: () => getNewsletterPreview(loopId, newsletterId),
    retry: false,
  });
}

export function useNewsletterPreview(loopId: number, newsletterId: number) {
  return useQuery(newsletterPreviewQueryOptions(loopId, newsletterId));
}
