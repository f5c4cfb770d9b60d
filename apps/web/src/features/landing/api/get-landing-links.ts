import type { LandingLinks } from '@loop/shared/simulator';
import { useAppConfig } from '@/lib/app-config';

/** Our own pages until the server answers (the server's defaults when nothing is configured). */
const FALLBACK: LandingLinks = { exampleNewsletter: '/guide#newsletter', demoVideo: '/guide#walkthrough', guide: '/guide' };

/** The landing page's links, from GET /api/config (lib/app-config.ts, the one query for it). */
export function useLandingLinks(): LandingLinks {
  return useAppConfig().data?.links ?? FALLBACK;
}
