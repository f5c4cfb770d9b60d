import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InviteAnswer } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { inviteStatusQueryOptions } from './get-invite-status';

/** POST /api/loops/{id}/invite: a new link anyone can join with until it expires; the Loop's older links stop at once. */
export function createInvite(loopId: number): Promise<InviteAnswer> {
  return api.post<InviteAnswer>(`/api/loops/${loopId}/invite`);
}

export function useCreateInvite(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => createInvite(loopId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: inviteStatusQueryOptions(loopId).queryKey }),
  });
}
