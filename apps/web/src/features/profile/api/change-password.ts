import { useMutation } from '@tanstack/react-query';
import type { ChangePasswordInput } from '@loop/shared/auth';
import { api } from '@/lib/api-client';

/** POST /api/user/password: the current password and the new one; every other session ends. */
export function changePassword(input: ChangePasswordInput): Promise<{ ok: true }> {
  return api.post<{ ok: true }>('/api/user/password', input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
