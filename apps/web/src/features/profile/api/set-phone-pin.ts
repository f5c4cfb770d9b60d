import { useMutation } from '@tanstack/react-query';
import type { SetPhonePinInput } from '@loop/shared/auth';
import { api } from '@/lib/api-client';

/** PUT /api/user/phone-pin: the 4-digit PIN a call from this phone asks for, and the password in use (decision 0067). */
export function setPhonePin(input: SetPhonePinInput): Promise<void> {
  return api.put<void>('/api/user/phone-pin', input);
}

export function useSetPhonePin() {
  return useMutation({ mutationFn: setPhonePin });
}
