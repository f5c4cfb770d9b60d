import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddMemberInput, LoopMember } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** POST /api/loops/{id}/members: 409 when the phone number is already in the Loop. */
export function addMember(loopId: number, input: AddMemberInput): Promise<LoopMember> {
  return api.post<LoopMember>(`/api/loops/${loopId}/members`, input);
}

export function useAddMember(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddMemberInput) => addMember(loopId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
