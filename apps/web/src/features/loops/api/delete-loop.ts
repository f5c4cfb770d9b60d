import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { loopQueryKey, loopsQueryKey } from './loop-keys';

/** DELETE /api/loops/{id}: the Loop with its members, updates and their media, invites and newsletters. */
export function deleteLoop(id: number): Promise<void> {
  return api.delete<void>(`/api/loops/${id}`);
}

export function useDeleteLoop(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteLoop(id),
    onSuccess: async () => {
      // The open page is about to leave: mark its detail stale without refetching a 404 now.
      await queryClient.invalidateQueries({ queryKey: loopQueryKey(id), refetchType: 'none' });
      await queryClient.invalidateQueries({ queryKey: loopsQueryKey, exact: true });
    },
  });
}
