import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GroupMessageSummary, SendGroupMessageInput, SentGroupMessageAnswer, TextCost } from '@loop/shared/group-messages';
import { api } from '@/lib/api-client';

/** Query key of a Loop's group messages (its own root: the owner's and staff's pages both read it). */
export const groupMessagesKey = (loopId: number) => ['group-messages', loopId] as const;

/** POST /api/loops/{id}/group-messages/preview: the exact text, who gets it, members x segments. Sends nothing. */
export function previewGroupMessage(loopId: number, message: string): Promise<TextCost> {
  return api.post<TextCost>(`/api/loops/${loopId}/group-messages/preview`, { message });
}

export function usePreviewGroupMessage(loopId: number) {
  return useMutation({ mutationFn: (message: string) => previewGroupMessage(loopId, message) });
}

/** POST /api/loops/{id}/group-messages: sends now, or at `sendAt`. */
export function sendGroupMessage(loopId: number, input: SendGroupMessageInput): Promise<SentGroupMessageAnswer> {
  return api.post<SentGroupMessageAnswer>(`/api/loops/${loopId}/group-messages`, input);
}

export function useSendGroupMessage(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SendGroupMessageInput) => sendGroupMessage(loopId, input),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: groupMessagesKey(loopId) }),
  });
}

/** GET /api/loops/{id}/group-messages: newest first, with delivery. */
export function useGroupMessages(loopId: number) {
  return useQuery({
    queryKey: groupMessagesKey(loopId),
    queryFn: () => api.get<GroupMessageSummary[]>(`/api/loops/${loopId}/group-messages`),
  });
}

/** POST /api/loops/{id}/group-messages/{messageId}/cancel: a scheduled one, before it goes. */
export function useCancelGroupMessage(loopId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (messageId: number) => api.post<{ ok: true }>(`/api/loops/${loopId}/group-messages/${messageId}/cancel`),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: groupMessagesKey(loopId) }),
  });
}
