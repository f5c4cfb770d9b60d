import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PhoneChangeStarted, User, VerifyPhoneChangeInput } from '@loop/shared/auth';
import { api } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/current-user';
import { takeProofOfWork } from '@/lib/proof-of-work';

/** POST /api/user/phone: the current password, then a code texted to the new number; it works only in this browser (its cookie). */
export async function startPhoneChange(phoneNumber: string, currentPassword: string): Promise<PhoneChangeStarted> {
  return api.post<PhoneChangeStarted>('/api/user/phone', { phoneNumber, currentPassword, altcha: await takeProofOfWork() });
}

/** POST /api/user/phone/verify: the code moves the account to the new number. */
export function verifyPhoneChange(input: VerifyPhoneChangeInput): Promise<User> {
  return api.post<User>('/api/user/phone/verify', input);
}

export function useVerifyPhoneChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: verifyPhoneChange,
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQueryKey, user);
      return queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}
