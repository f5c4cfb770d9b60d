import type { RegisterInput, SignUpStarted, VerifySignUpInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { useAuthMutation } from './auth-mutation';
import { takeProofOfWork } from '@/lib/proof-of-work';

/** POST /api/register: texts a code to the phone; no account exists yet. The code works only in this browser (its cookie). */
export async function startSignUp(input: RegisterInput): Promise<SignUpStarted> {
  return api.post<SignUpStarted>('/api/register', { ...input, altcha: await takeProofOfWork() });
}

/** POST /api/register/verify: the code creates the account and signs it in. */
export function verifySignUp(input: VerifySignUpInput): Promise<AuthResult> {
  return api.auth('/api/register/verify', input);
}

export function useVerifySignUp() {
  return useAuthMutation(verifySignUp);
}
