import { newsletterPath } from '@loop/shared/newsletters';
import type { LandingLinks } from '@loop/shared/simulator';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { findDemoNewsletter } from './find-demo-newsletter';

/** Where the guide lives when GUIDE_URL is not set: the web app's own /guide page. */
export const GUIDE_PATH = '/guide';

/**
 * The landing page's links: the configured URLs, else pages of our own. Without a video, Watch
 * Demo opens the guide's walkthrough; without a demo, the example newsletter is the guide's
 * newsletter step (a screenshot of a real one) rather than a dead link.
 */
export async function getLandingLinks(
  db: Db,
  config: Pick<Config, 'EXAMPLE_NEWSLETTER_URL' | 'DEMO_VIDEO_URL' | 'GUIDE_URL'>,
): Promise<LandingLinks> {
  const guide = config.GUIDE_URL ?? GUIDE_PATH;
  let exampleNewsletter = config.EXAMPLE_NEWSLETTER_URL;
  if (!exampleNewsletter) {
    const urlId = await findDemoNewsletter(db);
    exampleNewsletter = urlId ? newsletterPath(urlId) : `${GUIDE_PATH}#newsletter`;
  }
  return { exampleNewsletter, demoVideo: config.DEMO_VIDEO_URL ?? `${GUIDE_PATH}#walkthrough`, guide };
}
