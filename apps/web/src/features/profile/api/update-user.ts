import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { UpdateUserInput, User } from '@loop/shared/auth';
import { api } from '@/lib/api-client';
import { currentUserQueryKey } from '@/lib/current-user';

/** PUT /api/user: name, email, the messaging preference and the time zone. */
export function updateUser(input: UpdateUserInput): Promise<User> {
  return api.put<User>('/api/user', input);
}

export function useUpdateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateUser,
    onSuccess: (user) => {
      queryClient.setQueryData(currentUserQueryKey, user);
      return queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
    },
  });
}
