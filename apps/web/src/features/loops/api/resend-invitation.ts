import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoopDetail } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** POST /api/loops/{id}/members/{memberId}/invitation: once a day per member (429 says when). */
export function resendInvitation(loopId: number, memberId: number): Promise<LoopDetail> {
  return api.post<LoopDetail>(`/api/loops/${loopId}/members/${memberId}/invitation`);
}

export function useResendInvitation(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (memberId: number) => resendInvitation(loopId, memberId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
