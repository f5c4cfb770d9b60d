import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiConfig } from '@loop/shared/simulator';
import { api } from './api-client';

// App-wide like the session: the account menu, the Loop page, the simulator and the landing page read it.
export const appConfigQueryKey = ['config'] as const;

/**
 * GET /api/config, the one fetcher and query for it: public settings such as how Loop sends texts
 * and the landing page's links (no session needed); fixed while the server runs.
 */
export function getAppConfig(): Promise<ApiConfig> {
  return api.get<ApiConfig>('/api/config');
}

export function appConfigQueryOptions() {
  return queryOptions({ queryKey: appConfigQueryKey, queryFn: getAppConfig });
}

export function useAppConfig() {
  return useQuery(appConfigQueryOptions());
}

/** Whether texts stay on this machine, so anyone may play their members' phones. */
export function useIsSimulatorMode(): boolean {
  return useAppConfig().data?.messagingProvider === 'simulator';
}

/** Whether e-mails stay on this machine (no SMTP_URL), so the Mail Simulator shows them. */
export function useIsMailSimulated(): boolean {
  return useAppConfig().data?.mailTransport === 'simulator';
}
