import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { LoopSummary, UpdateLoopInput } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** PUT /api/loops/{id} with any of name, context, vibe, reminderSchedule, timeZone. */
export function updateLoop(id: number, input: UpdateLoopInput): Promise<LoopSummary> {
  return api.put<LoopSummary>(`/api/loops/${id}`, input);
}

/**
 * Changes run one after another per Loop (a mutation scope): two quick reminder clicks reach
 * the server in the order they were made.
 */
export function useUpdateLoop(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateLoopInput) => updateLoop(id, input),
    scope: { id: `update-loop-${id}` },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
