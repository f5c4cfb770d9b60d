import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** DELETE /api/loops/{id}/members/{memberId} (never the creator: the server says 400). */
export function removeMember(loopId: number, memberId: number): Promise<void> {
  return api.delete<void>(`/api/loops/${loopId}/members/${memberId}`);
}

export function useRemoveMember(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) => removeMember(loopId, memberId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
