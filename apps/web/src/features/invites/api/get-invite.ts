import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InvitePreview } from '@loop/shared/loops';
import { api } from '@/lib/api-client';

/** GET /api/invites/{code}: the Loop's name and when the link expires (404 unknown, 410 expired). */
export function getInvite(code: string): Promise<InvitePreview> {
  return api.get<InvitePreview>(`/api/invites/${encodeURIComponent(code)}`, { credentials: 'omit' });
}

export function inviteQueryOptions(code: string) {
  return queryOptions({ queryKey: ['invites', code], queryFn: () => getInvite(code) });
}

export function useInvite(code: string) {
  return useQuery(inviteQueryOptions(code));
}
