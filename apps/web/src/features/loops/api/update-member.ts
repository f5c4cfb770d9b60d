import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoopMember, UpdateMemberInput } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** PUT /api/loops/{id}/members/{memberId}: context always; name and preference when `detailsEditable`. */
export function updateMember(loopId: number, memberId: number, input: UpdateMemberInput): Promise<LoopMember> {
  return api.put<LoopMember>(`/api/loops/${loopId}/members/${memberId}`, input);
}

export function useUpdateMember(loopId: number, memberId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateMemberInput) => updateMember(loopId, memberId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
