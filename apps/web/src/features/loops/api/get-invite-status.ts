import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InviteLinkStatus } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopQueryKey } from './loop-keys';

/** GET /api/loops/{id}/invite: the live link, who joined through the Loop's links this week, the links' limits. */
export function getInviteStatus(id: number): Promise<InviteLinkStatus> {
  return api.get<InviteLinkStatus>(`/api/loops/${id}/invite`);
}

export function inviteStatusQueryOptions(id: number) {
  return queryOptions({ queryKey: [...loopQueryKey(id), 'invite'] as const, queryFn: () => getInviteStatus(id) });
}

export function useInviteStatus(id: number, enabled: boolean) {
  return useQuery({ ...inviteStatusQueryOptions(id), enabled });
}
