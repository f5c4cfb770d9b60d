import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoopSummary } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** PUT /api/loops/{id}/owner: hands the Loop over to one of its members (decision 0059). */
export function useTransferLoop(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) => api.put<LoopSummary>(`/api/loops/${loopId}/owner`, { memberId }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
