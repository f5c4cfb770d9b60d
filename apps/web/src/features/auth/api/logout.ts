import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, type AuthResult } from '@/lib/api-client';
import { currentUserQueryKey, refreshCurrentUser } from '@/lib/current-user';

/** POST /api/logout, with no body (and so no content type). */
export function logout(): Promise<AuthResult> {
  return api.auth('/api/logout');
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSuccess: (result) => {
      if (!result.ok) return;
      // Signed out for sure: show the signed-out view at once, and confirm with the server.
      queryClient.setQueryData(currentUserQueryKey, null);
      void refreshCurrentUser(queryClient);
    },
  });
}
