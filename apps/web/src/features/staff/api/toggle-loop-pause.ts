import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLoop } from '@loop/shared/admin';
import { api } from '@/lib/api-client';
import { refreshAfterLoopChange } from '@/lib/query-client';
import { replaceLoopInLists } from './replace-loop-in-lists';

/** POST /api/admin/loops/{id}/toggle-pause: a paused Loop gets no reminders or newsletters. */
export function toggleLoopPause(id: number): Promise<AdminLoop> {
  return api.post<AdminLoop>(`/api/admin/loops/${id}/toggle-pause`);
}

export function useToggleLoopPause(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => toggleLoopPause(id),
    scope: { id: `admin-loop-${id}` },
    onSuccess: (loop) => {
      replaceLoopInLists(queryClient, loop);
      void refreshAfterLoopChange(queryClient);
    },
  });
}
