import { queryOptions, useQuery } from '@tanstack/react-query';
import type { ApiConfig, LandingLinks } from '@loop/shared/simulator';
import { api } from '@/lib/api-client';

/** GET /api/config: the product's public settings, among them the landing page's links. */
export function getConfig(): Promise<ApiConfig> {
  return api.get<ApiConfig>('/api/config');
}

export const configQueryOptions = queryOptions({ queryKey: ['config'], queryFn: getConfig });

/** Our own pages until the server answers (the server's defaults when nothing is configured). */
const FALLBACK: LandingLinks = { exampleNewsletter: '/guide#newsletter', demoVideo: '/guide#walkthrough', guide: '/guide' };

export function useLandingLinks(): LandingLinks {
  return useQuery(configQueryOptions).data?.links ?? FALLBACK;
}
