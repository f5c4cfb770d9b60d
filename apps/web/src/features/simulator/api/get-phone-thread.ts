import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { SimulatorMessage, SimulatorPhone } from '@loop/shared/simulator';
import { api } from '@/lib/api-client';
import { phonePath, phoneThreadQueryKey, simulatorPhonesQueryKey } from './simulator-keys';

export interface PhoneThread {
  phone: SimulatorPhone;
  messages: SimulatorMessage[];
}

const IN_PROGRESS = new Set(['received', 'processing', 'queued', 'sending']);
// Loop answers within about a second: poll fast while it works on a text, gently otherwise.
const BUSY_POLL_MS = 500;
const IDLE_POLL_MS = 1500;

/** GET /api/simulator/phones/{phone}/messages: the last 200 texts in and out, oldest first. */
export function getPhoneThread(phoneNumber: string): Promise<PhoneThread> {
  return api.get<PhoneThread>(phonePath(phoneNumber));
}

/** Whether Loop is still handling a text of this thread (a reply may be on its way). */
export function isThreadBusy(thread: PhoneThread | undefined): boolean {
  return thread?.messages.some((message) => IN_PROGRESS.has(message.status)) ?? false;
}

export function phoneThreadQueryOptions(phoneNumber: string) {
  return queryOptions({
    queryKey: phoneThreadQueryKey(phoneNumber),
    queryFn: () => getPhoneThread(phoneNumber),
    // Polling stops while the tab is hidden (refetchIntervalInBackground is off).
    refetchInterval: (query) => (query.state.status === 'error' ? false : isThreadBusy(query.state.data) ? BUSY_POLL_MS : IDLE_POLL_MS),
  });
}

export function usePhoneThread(phoneNumber: string) {
  const queryClient = useQueryClient();
  const thread = useQuery(phoneThreadQueryOptions(phoneNumber));
  const optedOut = thread.data?.phone.optedOut;
  // A STOP or START is handled after the send answers: the thread sees it first; keep the list in step.
  useEffect(() => {
    if (optedOut === undefined) return;
    queryClient.setQueryData<SimulatorPhone[]>(simulatorPhonesQueryKey, (phones) =>
      phones?.map((phone) => (phone.phoneNumber === phoneNumber && phone.optedOut !== optedOut ? { ...phone, optedOut } : phone)),
    );
  }, [queryClient, phoneNumber, optedOut]);
  return thread;
}
