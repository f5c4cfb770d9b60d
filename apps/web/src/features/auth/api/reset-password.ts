import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordResetStarted, ResetPasswordInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { refreshCurrentUser } from '@/lib/current-user';

/** POST /api/password-reset: the same answer whether or not an account exists. */
export function requestPasswordReset(login: string): Promise<PasswordResetStarted> {
  return api.post<PasswordResetStarted>('/api/password-reset', { login });
}

/** POST /api/password-reset/confirm: sets the password, ends other sessions, signs this one in. */
export function resetPassword(input: ResetPasswordInput): Promise<AuthResult> {
  return api.auth('/api/password-reset/confirm', input);
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetPassword,
    onSuccess: async (result) => {
      if (result.ok) await refreshCurrentUser(queryClient);
    },
  });
}
