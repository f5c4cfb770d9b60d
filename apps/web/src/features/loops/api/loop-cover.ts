import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoopCover, SetCoverInput } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** PUT /api/loops/{id}/cover: one of the Loop's photos (`mediaUrl`) or an uploaded one (`photo`, base64). */
export function setLoopCover(id: number, input: SetCoverInput): Promise<{ cover: LoopCover | null }> {
  return api.put<{ cover: LoopCover | null }>(`/api/loops/${id}/cover`, input);
}

/** DELETE /api/loops/{id}/cover. */
export function removeLoopCover(id: number): Promise<{ cover: null }> {
  return api.delete<{ cover: null }>(`/api/loops/${id}/cover`);
}

export function useSetLoopCover(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetCoverInput) => setLoopCover(id, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}

export function useRemoveLoopCover(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => removeLoopCover(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
