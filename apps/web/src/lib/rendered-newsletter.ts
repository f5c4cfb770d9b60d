import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { RenderNewsletterAnswer } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';

/** POST /api/loops/{loopId}/newsletters/{newsletterId}/render {content}: the public page for unsaved Markdown. */
export function renderNewsletterDraft(loopId: number, newsletterId: number, content: string): Promise<RenderNewsletterAnswer> {
  return api.post<RenderNewsletterAnswer>(`/api/loops/${loopId}/newsletters/${newsletterId}/render`, { content });
}

/** The page the server draws for this Markdown (the editor's live preview, staff's View Content); the last one stays on screen while the next is drawn. */
export function useRenderedNewsletter(loopId: number, newsletterId: number, content: string) {
  return useQuery({
    queryKey: ['newsletter', 'render', loopId, newsletterId, content] as const,
    queryFn: () => renderNewsletterDraft(loopId, newsletterId, content),
    enabled: content.trim() !== '',
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    retry: false,
  });
}
