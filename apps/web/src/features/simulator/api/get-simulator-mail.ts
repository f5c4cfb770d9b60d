import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SimulatorEmail } from '@loop/shared/simulator';
import { api } from '@/lib/api-client';
import { simulatorMailQueryKey } from './simulator-keys';

// New e-mails (a confirmation, a newsletter) show up on their own while the page is open.
const POLL_MS = 3000;

/** GET /api/simulator/mail: the e-mails Loop would have sent (and received), newest first; 404 when real e-mail is on. */
export async function getSimulatorMail(): Promise<SimulatorEmail[]> {
  return (await api.get<{ emails: SimulatorEmail[] }>('/api/simulator/mail')).emails;
}

export function simulatorMailQueryOptions() {
  return queryOptions({
    queryKey: simulatorMailQueryKey,
    queryFn: getSimulatorMail,
    refetchInterval: (query) => (query.state.status === 'error' ? false : POLL_MS),
  });
}

export function useSimulatorMail(enabled = true) {
  return useQuery({ ...simulatorMailQueryOptions(), enabled });
}
