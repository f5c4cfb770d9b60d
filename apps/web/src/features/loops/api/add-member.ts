import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AddMemberAnswer, AddMemberInput } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** POST /api/loops/{id}/members: a pending member (the notice says when nothing was sent); 409 when already in the Loop. */
export function addMember(loopId: number, input: AddMemberInput): Promise<AddMemberAnswer> {
  return api.post<AddMemberAnswer>(`/api/loops/${loopId}/members`, input);
}

export function useAddMember(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddMemberInput) => addMember(loopId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
