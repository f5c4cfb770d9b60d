import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DeleteAccountInput, OwnedLoop } from '@loop/shared/account-data';
import { api } from '@/lib/api-client';
import { currentUserQueryKey, refreshCurrentUser } from '@/lib/current-user';

/** GET /api/user/owned-loops: the Loops the person runs, each with who could run it instead. */
export function getOwnedLoops(): Promise<OwnedLoop[]> {
  return api.get<OwnedLoop[]>('/api/user/owned-loops');
}

export function ownedLoopsQueryOptions() {
  return queryOptions({ queryKey: ['user', 'owned-loops'] as const, queryFn: getOwnedLoops });
}

export function useOwnedLoops(enabled: boolean) {
  return useQuery({ ...ownedLoopsQueryOptions(), enabled });
}

/** DELETE /api/user: the password, and what becomes of each owned Loop. */
export function deleteAccount(input: DeleteAccountInput): Promise<{ ok: true }> {
  return api.delete<{ ok: true }>('/api/user', input);
}

export function useDeleteAccount() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAccount,
    onSuccess: () => {
      // The session is gone: show the signed-out view at once.
      queryClient.setQueryData(currentUserQueryKey, null);
      void refreshCurrentUser(queryClient);
    },
  });
}
