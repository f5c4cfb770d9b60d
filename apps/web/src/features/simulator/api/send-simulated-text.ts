import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { SimulatorSendInput } from '@loop/shared/simulator';
import { api } from '@/lib/api-client';
import { phonePath, phoneThreadQueryKey, simulatorPhonesQueryKey } from './simulator-keys';

/** POST /api/simulator/phones/{phone}/messages: the text enters Loop's inbound pipeline (202). */
export function sendSimulatedText(phoneNumber: string, input: SimulatorSendInput): Promise<{ id: number; status: 'received' }> {
  return api.post(phonePath(phoneNumber), input);
}

export function useSendSimulatedText(phoneNumber: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SimulatorSendInput) => sendSimulatedText(phoneNumber, input),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: phoneThreadQueryKey(phoneNumber) }),
        // STOP and START change the phone's opted-out flag in the member list.
        queryClient.invalidateQueries({ queryKey: simulatorPhonesQueryKey, exact: true }),
      ]),
  });
}
