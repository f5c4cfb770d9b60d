import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** DELETE /api/loops/{id}/updates/{updateId}, with its media. */
export function deleteUpdate(loopId: number, updateId: number): Promise<void> {
  return api.delete<void>(`/api/loops/${loopId}/updates/${updateId}`);
}

export function useDeleteUpdate(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (updateId: number) => deleteUpdate(loopId, updateId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
