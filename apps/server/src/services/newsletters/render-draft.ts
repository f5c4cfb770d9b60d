import type { RenderNewsletterAnswer } from '@loop/shared/newsletters';
import type { DbOrTx } from '../../db/client';
import type { loops } from '../../db/schema';
import { findClips, findPhotos } from '../../media/find-media';
import { newsletterUrl } from '../../publishing/newsletter-texts';
import { renderNewsletterPage } from '../../publishing/public-page';
import { findMediaUrls } from '../../publishing/render-markdown';
import { findLoopCover } from '../loops/loop-cover';
import type { NewsletterRow } from './insert-newsletter';

/**
 * The editor's live preview (decision 0041): the public page exactly as GET /newsletters/{urlId}
 * draws it (renderNewsletterPage, the same code), for Markdown that is not saved yet, and what
 * each of its /media/ pictures is, so the editor shows a voice memo or video as its player.
 * Only this Loop's own media are found, as on the page.
 */
export async function renderNewsletterDraft(
  db: DbOrTx,
  input: { loop: typeof loops.$inferSelect; newsletter: NewsletterRow; content: string; publicUrl: string },
): Promise<RenderNewsletterAnswer> {
  const { loop, newsletter, content } = input;
  const urls = findMediaUrls(content);
  const [photos, clips] = await Promise.all([findPhotos(db, urls, { loopId: loop.id }), findClips(db, urls, { loopId: loop.id })]);
  const html = renderNewsletterPage({
    newsletter: { ...newsletter, content },
    loop,
    pageUrl: newsletterUrl(input.publicUrl, newsletter.urlId),
    publicUrl: input.publicUrl,
    photos,
    clips,
    script: false,
    cover: await findLoopCover(db, loop.id),
  });
  const media: RenderNewsletterAnswer['media'] = {};
  for (const [url] of photos) media[url] = { kind: 'photo', poster: null };
  for (const [url, clip] of clips) media[url] = { kind: clip.kind, poster: clip.poster };
  return { html, media };
}
