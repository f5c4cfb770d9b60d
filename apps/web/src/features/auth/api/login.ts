import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoginInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { refreshCurrentUser } from '@/lib/current-user';

/** POST /api/login. */
export function login(input: LoginInput): Promise<AuthResult> {
  return api.auth('/api/login', input);
}

/** Logs in; on success the session is read again before the promise resolves. */
export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: async (result) => {
      if (result.ok) await refreshCurrentUser(queryClient);
    },
  });
}
