import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface GroupMessageAnswer {
  queued: number;
}

/** POST /api/admin/loops/{id}/bulk-sms: texts every opted-in member of the Loop. */
export function sendGroupMessage(loopId: number, message: string): Promise<GroupMessageAnswer> {
  return api.post<GroupMessageAnswer>(`/api/admin/loops/${loopId}/bulk-sms`, { message });
}

export function useSendGroupMessage(loopId: number) {
  return useMutation({ mutationFn: (message: string) => sendGroupMessage(loopId, message) });
}
