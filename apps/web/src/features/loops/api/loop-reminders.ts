import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ComingIssueAnswer, ReminderQuestionsAnswer } from '@loop/shared/reminder-questions';
import { api } from '@/lib/api-client';
import { loopQueryKey } from './loop-keys';

/** GET /api/loops/{id}/coming-issue: who has and has not sent something since the last newsletter (owner, staff). */
export function useComingIssue(id: number) {
  return useQuery(
    queryOptions({
      queryKey: [...loopQueryKey(id), 'coming-issue'] as const,
      queryFn: () => api.get<ComingIssueAnswer>(`/api/loops/${id}/coming-issue`),
    }),
  );
}

const questionsKey = (id: number) => [...loopQueryKey(id), 'reminder-questions'] as const;

/** GET /api/loops/{id}/reminder-questions: the owner's own questions and the vibes' (owner, staff). */
export function useReminderQuestions(id: number) {
  return useQuery({ queryKey: questionsKey(id), queryFn: () => api.get<ReminderQuestionsAnswer>(`/api/loops/${id}/reminder-questions`) });
}

/** PUT /api/loops/{id}/reminder-questions: the owner's whole list, replaced. */
export function useSaveReminderQuestions(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (questions: string[]) => api.put<ReminderQuestionsAnswer>(`/api/loops/${id}/reminder-questions`, { questions }),
    onSuccess: (answer) => queryClient.setQueryData(questionsKey(id), answer),
  });
}
