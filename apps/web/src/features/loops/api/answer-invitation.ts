import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { InvitationAnswer } from '@loop/shared/invitations';
import { api } from '@/lib/api-client';
import { invitationsQueryKey, loopsQueryKey } from './loop-keys';

export type InvitationVerb = 'accept' | 'decline';

/** POST /api/invitations/{membershipId}/accept or /decline: one invitation, one Loop (decision 0035). */
export function answerInvitation(membershipId: number, verb: InvitationVerb): Promise<InvitationAnswer> {
  return api.post<InvitationAnswer>(`/api/invitations/${membershipId}/${verb}`);
}

/** Accepting adds the Loop to My Loops; either answer takes the invitation off the list. */
export function useAnswerInvitation(verb: InvitationVerb) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (membershipId: number) => answerInvitation(membershipId, verb),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: invitationsQueryKey }),
        queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
      ]),
  });
}
