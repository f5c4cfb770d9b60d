import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { findClips, findPhotos } from '../../media/photo-sizes';
import { newsletterUrl } from '../../publishing/newsletter-texts';
import { ASSET_PREFIX, pageAssets } from '../../publishing/page-assets';
import { renderNewsletterPage, renderNotFoundPage } from '../../publishing/public-page';
import { findPhotoUrls } from '../../publishing/render-markdown';
import { findPublicNewsletter } from '../../services/newsletters/find-public-newsletter';

/** A urlId is randomToken(): base64url. Anything else is unknown without asking the database. */
const URL_ID = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The public newsletter page, GET /newsletters/{urlId}, and its two files. Sent newsletters are
 * public to anyone with the link; a draft is shown only to staff and to its Loop's owner (marked
 * as a draft; decision 0040), and is a 404 for everyone else, as is an unknown link.
 */
const newsletterPageRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.ctx;

  app.get<{ Params: { urlId: string } }>('/newsletters/:urlId', async (request, reply) => {
    const { urlId } = request.params;
    const found = URL_ID.test(urlId) ? await findPublicNewsletter(db, urlId) : null;
    const visible =
      found && (found.newsletter.status === 'sent' || request.user?.isPrivileged === true || request.user?.id === found.loop.creatorId);
    if (!found || !visible) return sendHtml(reply.code(404), renderNotFoundPage(), 'no-store');
    const html = renderNewsletterPage({
      newsletter: found.newsletter,
      loop: found.loop,
      pageUrl: newsletterUrl(config.PUBLIC_URL, urlId),
      publicUrl: config.PUBLIC_URL,
      photos: await findPhotos(db, findPhotoUrls(found.newsletter.content), { loopId: found.newsletter.loopId }),
      clips: await findClips(db, findPhotoUrls(found.newsletter.content), { loopId: found.newsletter.loopId }),
    });
    // A draft changes with every save and is for staff and its owner only: never kept by a browser or a proxy.
    return sendHtml(reply, html, found.newsletter.status === 'draft' ? 'no-store' : 'no-cache');
  });

  for (const asset of Object.values(pageAssets)) {
    app.get(asset.path, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body),
    );
  }
  app.get(`${ASSET_PREFIX}*`, async (_request, reply) => reply.code(404).type('text/plain').send('Not found'));
};

function sendHtml(reply: FastifyReply, html: string, cache: string) {
  return reply.type('text/html; charset=utf-8').header('cache-control', cache).send(html);
}

export default newsletterPageRoutes;
