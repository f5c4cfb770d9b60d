import { queryOptions, useQuery } from '@tanstack/react-query';
import type { SimulatorPhone } from '@loop/shared/simulator';
import { api } from '@/lib/api-client';
import { simulatorPhonesQueryKey } from './simulator-keys';

/** GET /api/simulator/phones: the members of your Loops (every member for staff); 403 when Twilio is on. */
export async function getSimulatorPhones(): Promise<SimulatorPhone[]> {
  return (await api.get<{ phones: SimulatorPhone[] }>('/api/simulator/phones')).phones;
}

export function simulatorPhonesQueryOptions() {
  return queryOptions({ queryKey: simulatorPhonesQueryKey, queryFn: getSimulatorPhones, staleTime: 30_000 });
}

export function useSimulatorPhones(enabled = true) {
  return useQuery({ ...simulatorPhonesQueryOptions(), enabled });
}
