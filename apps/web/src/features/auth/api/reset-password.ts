import type { PasswordResetStarted, ResetPasswordInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { useAuthMutation } from './auth-mutation';
import { takeProofOfWork } from '@/lib/proof-of-work';

/** POST /api/password-reset: the same answer whether or not an account exists. */
export async function requestPasswordReset(login: string): Promise<PasswordResetStarted> {
  return api.post<PasswordResetStarted>('/api/password-reset', { login, altcha: await takeProofOfWork() });
}

/** POST /api/password-reset/confirm: sets the password, ends other sessions, signs this one in. */
export function resetPassword(input: ResetPasswordInput): Promise<AuthResult> {
  return api.auth('/api/password-reset/confirm', input);
}

export function useResetPassword() {
  return useAuthMutation(resetPassword);
}
