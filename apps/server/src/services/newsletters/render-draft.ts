import { photoAtLeast } from '@loop/shared/media';
import type { RenderNewsletterAnswer } from '@loop/shared/newsletters';
import type { DbOrTx } from '../../db/client';
import type { loops } from '../../db/schema';
import { renderNewsletterPage } from '../../publishing/public-page';
import { buildNewsletterView } from './build-newsletter-view';
import type { NewsletterRow } from './insert-newsletter';

/** The editor shows a photo at most a few hundred pixels wide: its smallest stored size of 640 px or more. */
const EDITOR_PHOTO_WIDTH = 640;

/**
 * The editor's live preview (decision 0041): the public page exactly as GET /newsletters/{urlId}
 * draws it (the same view, buildNewsletterView, and the same renderNewsletterPage), for Markdown that is not saved yet, and what
 * each of its /media/ pictures is, so the editor shows a voice memo or video as its player.
 * Only this Loop's own media are found, as on the page.
 */
export async function renderNewsletterDraft(
  db: DbOrTx,
  input: { loop: typeof loops.$inferSelect; newsletter: NewsletterRow; content: string; publicUrl: string },
): Promise<RenderNewsletterAnswer> {
  const { loop, newsletter, content } = input;
  const view = await buildNewsletterView(db, {
    newsletter: { ...newsletter, content },
    loop,
    publicUrl: input.publicUrl,
    reactions: false,
  });
  const html = renderNewsletterPage(view, { script: false });
  const media: RenderNewsletterAnswer['media'] = {};
  for (const [url, photo] of view.photos) media[url] = { kind: 'photo', poster: null, preview: photoAtLeast(photo, EDITOR_PHOTO_WIDTH) };
  for (const [url, clip] of view.clips) media[url] = { kind: clip.kind, poster: clip.poster };
  return { html, media };
}
