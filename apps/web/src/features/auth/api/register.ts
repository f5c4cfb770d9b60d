import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PendingSignUp, RegisterInput, SignUpStarted, VerifySignUpInput } from '@loop/shared/auth';
import { api, type AuthResult } from '@/lib/api-client';
import { useAuthMutation } from './auth-mutation';
import { takeProofOfWork } from '@/lib/proof-of-work';

/** POST /api/register: texts a code to the phone; no account exists yet. The code works only in this browser (its cookie). */
export async function startSignUp(input: RegisterInput): Promise<SignUpStarted> {
  return api.post<SignUpStarted>('/api/register', { ...input, altcha: await takeProofOfWork() });
}

/** POST /api/register/resend without the phone: a new code for the sign-up this browser started (after a reload). */
export async function resendSignUpCode(): Promise<SignUpStarted> {
  return api.post<SignUpStarted>('/api/register/resend', { altcha: await takeProofOfWork() });
}

/** GET /api/register/pending: the sign-up this browser started, so that a reload keeps its code step. */
export const pendingSignUpQueryOptions = () =>
  queryOptions({
    queryKey: ['register', 'pending'],
    queryFn: () => api.get<PendingSignUp>('/api/register/pending'),
    // Read once per visit to the page: the code step then counts down on its own.
    staleTime: Infinity,
    retry: false,
  });

export function usePendingSignUp() {
  return useQuery(pendingSignUpQueryOptions());
}

/** POST /api/register/verify: the code creates the account and signs it in (without the phone: this browser's sign-up's). */
export function verifySignUp(input: VerifySignUpInput): Promise<AuthResult> {
  return api.auth('/api/register/verify', input);
}

export function useVerifySignUp() {
  return useAuthMutation(verifySignUp);
}
