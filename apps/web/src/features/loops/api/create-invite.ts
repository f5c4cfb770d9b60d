import { useMutation } from '@tanstack/react-query';
import type { InviteAnswer } from '@loop/shared/loops';
import { api } from '@/lib/api-client';

/** POST /api/loops/{id}/invite: a new link anyone can join with until it expires. */
export function createInvite(loopId: number): Promise<InviteAnswer> {
  return api.post<InviteAnswer>(`/api/loops/${loopId}/invite`);
}

export function useCreateInvite(loopId: number) {
  return useMutation({ mutationFn: () => createInvite(loopId) });
}
