import type { FastifyPluginAsync } from 'fastify';
import { newsletterPdfQuerySchema } from '@loop/shared/paper';
import { parseInput } from '../../errors';
import { heavyWork } from '../../media/heavy-work';
import { issueFromNewsletter } from '../../paper/issue-from-newsletter';
import { renderIssuePdf } from '../../paper/render-issue-pdf';
import { renderNotFoundPage } from '../../publishing/public-page';
import { findPublicNewsletter } from '../../services/newsletters/find-public-newsletter';
import { isVisibleTo, URL_ID } from './visibility';

/** PDFs one address may ask for in ten minutes: a family prints a few, a stranger cannot keep the cores busy. */
export const PDFS_PER_TEN_MINUTES = 30;

/**
 * GET /newsletters/{urlId}.pdf: the issue's print-ready edition (decision 0069), A4 or US Letter
 * (`size`, by default Letter for a Loop in the Americas' zones, else A4), large type with
 * `large=1`. The page's own access rules: a sent issue for anyone with the link, a draft for
 * staff and the Loop's owner (their preview before approving); anything else is the page's 404.
 */
const newsletterPdfRoutes: FastifyPluginAsync = async (app) => {
  const { db, config, storage } = app.ctx;
  const limit = app.attemptLimiter({ name: 'newsletter-pdf', windowMs: 10 * 60_000, perIp: PDFS_PER_TEN_MINUTES });

  app.get<{ Params: { urlId: string } }>('/newsletters/:urlId.pdf', { preHandler: limit }, async (request, reply) => {
    const query = parseInput(newsletterPdfQuerySchema, request.query);
    const { urlId } = request.params;
    const found = URL_ID.test(urlId) ? await findPublicNewsletter(db, urlId) : null;
    if (!found || !isVisibleTo(found, request.user)) {
      return reply.code(404).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderNotFoundPage());
    }
    const size = query.size ?? (found.loop.timeZone.startsWith('America/') ? 'letter' : 'a4');
    const large = query.large === '1';
    const pdf = await heavyWork.run(async () =>
      renderIssuePdf(await issueFromNewsletter(db, storage, config.PUBLIC_URL, found), { size, large }),
    );
    const sent = found.newsletter.status === 'sent';
    return reply
      .type('application/pdf')
      .header('content-disposition', `inline; filename="${fileName(found.loop.name, found.newsletter.periodEnd, large)}"`)
      .header('cache-control', sent ? 'no-cache' : 'no-store')
      .header('x-content-type-options', 'nosniff')
      .send(pdf);
  });
};

/** "the-smiths-2026-12-01.pdf": letters and digits only, so no header can be broken by a Loop's name. */
function fileName(loopName: string, date: Date, large: boolean): string {
  const name = loopName
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60);
  return `${name || 'loop'}-${date.toISOString().slice(0, 10)}${large ? '-large-type' : ''}.pdf`;
}

export default newsletterPdfRoutes;
