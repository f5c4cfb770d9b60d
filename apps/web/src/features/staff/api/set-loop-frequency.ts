import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { AdminLoop } from '@loop/shared/admin';
import type { Frequency } from '@loop/shared/constants';
import { api } from '@/lib/api-client';
import { refreshAfterLoopChange } from '@/lib/query-client';
import { replaceLoopInLists } from './replace-loop-in-lists';

/** PUT /api/admin/loops/{id}/frequency: how often the Loop's newsletter goes out. */
export function setLoopFrequency(id: number, frequency: Frequency): Promise<AdminLoop> {
  return api.put<AdminLoop>(`/api/admin/loops/${id}/frequency`, { frequency });
}

export function useSetLoopFrequency(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (frequency: Frequency) => setLoopFrequency(id, frequency),
    // With the pause toggle: changes to one Loop reach the server in the order they were made.
    scope: { id: `admin-loop-${id}` },
    onSuccess: (loop) => {
      replaceLoopInLists(queryClient, loop);
      void refreshAfterLoopChange(queryClient);
    },
  });
}
