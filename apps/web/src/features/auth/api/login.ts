import type { LoginInput, SignInCodeNeeded, User } from '@loop/shared/auth';
import { api, errorText, type AuthResult } from '@/lib/api-client';
import { useAuthMutation } from './auth-mutation';

/** Signed in, refused with a message, or (after many failed sign-ins from elsewhere) a code to enter. */
export type LoginResult = AuthResult | { ok: false; message: string; codeNeeded: SignInCodeNeeded };

/**
 * POST /api/login. Past the account's ceiling of failed sign-ins the server answers 202 with
 * `codeRequired` instead of signing in (decision 0028): sending the form again with the code texted
 * to the account's phone signs in.
 */
export async function login(input: LoginInput): Promise<LoginResult> {
  try {
    const answer = await api.post<User | SignInCodeNeeded>('/api/login', input);
    if ('codeRequired' in answer) return { ok: false, message: answer.message, codeNeeded: answer };
    return { ok: true };
  } catch (error) {
    return { ok: false, message: errorText(error) };
  }
}

/** Logs in; on success the session is read again before the promise resolves. */
export function useLogin() {
  return useAuthMutation(login);
}
