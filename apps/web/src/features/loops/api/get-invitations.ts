import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Invitation } from '@loop/shared/invitations';
import { api } from '@/lib/api-client';
import { invitationsQueryKey } from './loop-keys';

/** GET /api/invitations: invitations to Loops waiting for the signed-in person's answer, newest first. */
export function getInvitations(): Promise<Invitation[]> {
  return api.get<Invitation[]>('/api/invitations');
}

export function invitationsQueryOptions() {
  return queryOptions({ queryKey: invitationsQueryKey, queryFn: getInvitations });
}

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}
