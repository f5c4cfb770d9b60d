import type { DbOrTx } from '../../db/client';
import { findClips, findPhotos } from '../../media/find-media';
import { newsletterUrl } from '../../publishing/newsletter-texts';
import { toNewsletterView, type NewsletterCover, type NewsletterView, type NewsletterViewInput } from '../../publishing/newsletter-view';
import { findMediaUrls } from '../../publishing/render-markdown';
import { findLoopCover } from '../loops/loop-cover';
import { listReactions } from './reactions';

/**
 * The one newsletter view (publishing/newsletter-view.ts) of a newsletter, for its public page,
 * the owner's live preview (its Markdown not saved yet), its print view and its e-mail: the
 * photos and clips its Markdown shows that are this Loop's own and exist, and a sent issue's
 * reactions. Built once per page, preview or send; every edition renders this.
 */
export async function buildNewsletterView(
  db: DbOrTx,
  input: {
    newsletter: NewsletterViewInput['newsletter'] & { id: number; loopId: number; urlId: string };
    loop: NewsletterViewInput['loop'];
    publicUrl: string;
    /** The cover photo; when not given, the Loop's own (loops/loop-cover.ts). */
    cover?: NewsletterCover | null;
    /** False: no reactions (the editor's preview and the e-mail show none). */
    reactions?: boolean;
  },
): Promise<NewsletterView> {
  const { newsletter } = input;
  const paths = findMediaUrls(newsletter.content);
  const [photos, clips, reactions, cover] = await Promise.all([
    findPhotos(db, paths, { loopId: newsletter.loopId }),
    findClips(db, paths, { loopId: newsletter.loopId }),
    newsletter.status === 'sent' && input.reactions !== false ? listReactions(db, newsletter.id) : [],
    input.cover === undefined ? findLoopCover(db, newsletter.loopId) : input.cover,
  ]);
  return toNewsletterView({
    newsletter,
    loop: input.loop,
    pageUrl: newsletterUrl(input.publicUrl, newsletter.urlId),
    publicUrl: input.publicUrl,
    photos,
    clips,
    reactions,
    cover,
  });
}
