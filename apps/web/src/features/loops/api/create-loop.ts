import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateLoopAnswer, CreateLoopInput } from '@loop/shared/loops';
import { api } from '@/lib/api-client';
import { loopsQueryKey } from './loop-keys';

/** POST /api/loops: answers the new Loop and whether texts really go out (`smsStatus`). */
export function createLoop(input: CreateLoopInput): Promise<CreateLoopAnswer> {
  return api.post<CreateLoopAnswer>('/api/loops', input);
}

export function useCreateLoop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLoop,
    // Not awaited: the refetched list swaps the empty state (and the dialog in it) for the cards,
    // and the dialog must still be there to open the new Loop.
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: loopsQueryKey }),
  });
}
