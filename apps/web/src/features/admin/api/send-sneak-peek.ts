import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SneakPeekAnswer } from '@loop/shared/newsletters';
import { api } from '@/lib/api-client';
import { refreshAfterStaffChange } from './admin-keys';

/** POST /api/loops/{id}/sneak-peek: a teaser of the updates so far, written and texted to every member at once. */
export function sendSneakPeek(loopId: number): Promise<SneakPeekAnswer> {
  return api.post<SneakPeekAnswer>(`/api/loops/${loopId}/sneak-peek`);
}

export function useSendSneakPeek(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendSneakPeek(loopId),
    onSuccess: () => void refreshAfterStaffChange(queryClient),
  });
}
