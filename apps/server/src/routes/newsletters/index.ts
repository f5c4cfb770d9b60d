import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { findClips, findPhotos } from '../../media/find-media';
import { newsletterUrl } from '../../publishing/newsletter-texts';
import { ASSET_PREFIX, pageAssets } from '../../publishing/page-assets';
import { newsletterArchivePath, newsletterPath, personalArchivePath } from '@loop/shared/newsletters';
import { renderArchivePage, renderMembersOnlyPage, renderNewsletterPage, renderNotFoundPage } from '../../publishing/public-page';
import { findMediaUrls } from '../../publishing/render-markdown';
import { findPublicNewsletter } from '../../services/newsletters/find-public-newsletter';
import { listArchive, listPersonalArchive, type Archive } from '../../services/newsletters/list-archive';
import { listReactions, PAGE_REACTIONS } from '../../services/newsletters/reactions';
import { getLoopAccess } from '../../services/loop-access';
import { findLoopCover } from '../../services/loops/loop-cover';

/** A urlId is randomToken(): base64url. Anything else is unknown without asking the database. */
const URL_ID = /^[A-Za-z0-9_-]{20,100}$/;

/**
 * The public newsletter page, GET /newsletters/{urlId}, its Loop's past issues at
 * /newsletters/{urlId}/archive (its current members, signed in) and /newsletters/past/{key} (a
 * member's own link), and its files. Sent newsletters are
 * public to anyone with the link; a draft is shown only to staff and to its Loop's owner (marked
 * as a draft; decision 0040), and is a 404 for everyone else, as is an unknown link.
 */
const newsletterPageRoutes: FastifyPluginAsync = async (app) => {
  const { db, config } = app.ctx;

  app.get<{ Params: { urlId: string } }>('/newsletters/:urlId', async (request, reply) => {
    const { urlId } = request.params;
    const found = URL_ID.test(urlId) ? await findPublicNewsletter(db, urlId) : null;
    const visible =
      found && (found.newsletter.status === 'sent' || request.user?.isStaff === true || request.user?.id === found.loop.creatorId);
    if (!found || !visible) return sendHtml(reply.code(404), renderNotFoundPage(), 'no-store');
    const sent = found.newsletter.status === 'sent';
    const react = sent ? await reactFor(request, found.newsletter.loopId, found.newsletter.id) : undefined;
    const html = renderNewsletterPage({
      newsletter: found.newsletter,
      loop: found.loop,
      pageUrl: newsletterUrl(config.PUBLIC_URL, urlId),
      publicUrl: config.PUBLIC_URL,
      photos: await findPhotos(db, findMediaUrls(found.newsletter.content), { loopId: found.newsletter.loopId }),
      clips: await findClips(db, findMediaUrls(found.newsletter.content), { loopId: found.newsletter.loopId }),
      ...(sent ? { archivePath: newsletterArchivePath(urlId), reactions: await listReactions(db, found.newsletter.id) } : {}),
      ...(react ? { react } : {}),
      cover: await findLoopCover(db, found.newsletter.loopId),
    });
    // A draft changes with every save and is for staff and its owner only: never kept by a browser or a
    // proxy; a member's page (their own reactions marked) is theirs alone.
    return sendHtml(reply, html, !sent ? 'no-store' : react ? 'private, no-cache' : 'no-cache');
  });

  // The Loop's past issues, behind the link of one of its sent newsletters (decision 0042), for
  // its current members signed in (decision 0053): an old link alone opens only its own issue.
  app.get<{ Params: { urlId: string } }>('/newsletters/:urlId/archive', async (request, reply) => {
    const { urlId } = request.params;
    const archive = URL_ID.test(urlId) ? await listArchive(db, urlId, request.user) : null;
    if (archive === 'members_only') return sendHtml(reply.code(403), renderMembersOnlyPage(newsletterPath(urlId)), 'no-store');
    return sendArchive(reply, archive);
  });

  // A member's own link to the past issues, good while they are a member (decision 0053).
  app.get<{ Params: { key: string } }>(personalArchivePath(':key'), async (request, reply) =>
    sendArchive(reply, await listPersonalArchive(db, config.SESSION_SECRET, request.params.key)),
  );

  for (const asset of Object.values(pageAssets)) {
    app.get(asset.path, async (_request, reply) =>
      reply.type(asset.type).header('cache-control', 'public, max-age=31536000, immutable').send(asset.body),
    );
  }
  app.get(`${ASSET_PREFIX}*`, async (_request, reply) => reply.code(404).type('text/plain').send('Not found'));
};

/**
 * For a signed-in member or the owner of the Loop (loop-access), what the page offers them
 * to tap and which they chose; undefined for anyone else, staff included (decision 0056).
 */
async function reactFor(request: FastifyRequest, loopId: number, newsletterId: number) {
  const { db } = request.server.ctx;
  const access = request.user ? await getLoopAccess(db, request.user, loopId).catch(() => null) : null;
  if (!access || access.role === 'staff') return undefined;
  const mine = (await listReactions(db, newsletterId)).filter((r) => r.userId === access.user.id).map((r) => r.body);
  return { path: `/api/loops/${loopId}/newsletters/${newsletterId}/reactions`, emoji: PAGE_REACTIONS, mine };
}

/** Who sees the list sees it fresh each time: it changes with every issue and every member who leaves. */
function sendArchive(reply: FastifyReply, archive: Archive | null) {
  if (!archive) return sendHtml(reply.code(404), renderNotFoundPage(), 'no-store');
  const entries = archive.entries.map((entry) => ({ ...entry, path: newsletterPath(entry.urlId) }));
  return sendHtml(reply, renderArchivePage({ loop: archive.loop, entries }), 'private, no-store');
}

function sendHtml(reply: FastifyReply, html: string, cache: string) {
  return reply.type('text/html; charset=utf-8').header('cache-control', cache).send(html);
}

export default newsletterPageRoutes;
