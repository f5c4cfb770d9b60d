import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SneakPeekAnswer, SneakPeekPreview } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { refreshAfterLoopChange } from '@/lib/query-client';
import { staffKeys } from './staff-keys';

/** GET /api/loops/{id}/sneak-peek/preview: the text a sneak peek would send now, to whom, and its cost; sends nothing. */
export function previewSneakPeek(loopId: number): Promise<SneakPeekPreview> {
  return api.get<SneakPeekPreview>(`/api/loops/${loopId}/sneak-peek/preview`);
}

/** Read each time the confirm dialog opens (`enabled`), never from an old answer. */
export function useSneakPeekPreview(loopId: number, enabled: boolean) {
  return useQuery({
    queryKey: [...staffKeys.loop(loopId), 'sneak-peek-preview'] as const,
    queryFn: () => previewSneakPeek(loopId),
    enabled,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}

/** POST /api/loops/{id}/sneak-peek: a teaser of the updates so far, written and texted to every member at once. */
export function sendSneakPeek(loopId: number): Promise<SneakPeekAnswer> {
  return api.post<SneakPeekAnswer>(`/api/loops/${loopId}/sneak-peek`);
}

export function useSendSneakPeek(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendSneakPeek(loopId),
    onSuccess: () => void refreshAfterLoopChange(queryClient),
  });
}
