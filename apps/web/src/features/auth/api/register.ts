import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { RegisterInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { refreshCurrentUser } from '@/lib/current-user';

/** POST /api/register: creates the account and signs it in. */
export function register(input: RegisterInput): Promise<AuthResult> {
  return api.auth('/api/register', input);
}

export function useRegister() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: register,
    onSuccess: async (result) => {
      if (result.ok) await refreshCurrentUser(queryClient);
    },
  });
}
