import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AuthResult } from '@/lib/api-client';
import { refreshCurrentUser } from '@/lib/current-user';

/** A call that signs in, as a mutation: on success the session is read again before the promise resolves. */
export function useAuthMutation<Input, Result extends AuthResult = AuthResult>(mutationFn: (input: Input) => Promise<Result>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async (result) => {
      if (result.ok) await refreshCurrentUser(queryClient);
    },
  });
}
