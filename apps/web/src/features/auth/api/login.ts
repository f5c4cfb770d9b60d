import type { LoginInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { useAuthMutation } from './auth-mutation';

/** POST /api/login. */
export function login(input: LoginInput): Promise<AuthResult> {
  return api.auth('/api/login', input);
}

/** Logs in; on success the session is read again before the promise resolves. */
export function useLogin() {
  return useAuthMutation(login);
}
