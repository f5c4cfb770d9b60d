import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DataExport } from '@loop/shared/account-data';
import { api } from '@/lib/api-client';

export const dataExportQueryKey = ['user', 'export'] as const;

/** GET /api/user/export: the latest export's state and, when ready, its link and expiry. */
export function getDataExport(): Promise<DataExport> {
  return api.get<DataExport>('/api/user/export');
}

export function dataExportQueryOptions() {
  return queryOptions({
    queryKey: dataExportQueryKey,
    queryFn: getDataExport,
    // While it is being built, look again every few seconds until it is ready.
    refetchInterval: (query) => (query.state.data?.status === 'building' ? 3000 : false),
  });
}

export function useDataExport() {
  return useQuery(dataExportQueryOptions());
}

/** POST /api/user/export: starts gathering the data; answers the new state. */
export function requestDataExport(): Promise<DataExport> {
  return api.post<DataExport>('/api/user/export');
}

export function useRequestDataExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: requestDataExport,
    onSuccess: (state) => queryClient.setQueryData(dataExportQueryKey, state),
  });
}
