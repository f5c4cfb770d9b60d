import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@loop/shared/loops';
import {
  moveNewsletterSchema,
  newsletterParamsSchema,
  saveNewsletterSchema,
  type GenerateNewsletterAnswer,
  type NewsletterPreview,
  type RenderNewsletterAnswer,
  type SaveNewsletterAnswer,
  type ScheduledNewsletterAnswer,
  type SendNewsletterAnswer,
} from '@loop/shared/newsletters';
import { gatedUser } from '../../../../plugins/session';
import { getLoopAccess, requireManage } from '../../../../services/loop-access';
import { approveNewsletter } from '../../../../services/newsletters/approve-newsletter';
import { unapproveNewsletter } from '../../../../services/newsletters/unapprove-newsletter';
import { generateNewsletter } from '../../../../services/newsletters/generate-newsletter';
import { getLoopNewsletter } from '../../../../services/newsletters/get-loop-newsletter';
import { moveNewsletter } from '../../../../services/newsletters/move-newsletter';
import { renderNewsletterDraft } from '../../../../services/newsletters/render-draft';
import { saveNewsletterDraft } from '../../../../services/newsletters/save-newsletter-draft';
import { sendNewsletter } from '../../../../services/newsletters/send-newsletter';
import { newsletterSendLimits } from '../../../../services/group-messages/group-message-limits';
import { skipNewsletter } from '../../../../services/newsletters/skip-newsletter';
import { toNewsletter } from '../../../../services/newsletters/to-newsletter';
import type { FastifyRequest } from 'fastify';
import { mailLinksOf } from '../../../../mail/links';
import { AppError } from '../../../../errors';
import { listReactions, PAGE_REACTIONS, toggleReaction } from '../../../../services/newsletters/reactions';

const loopParams = z.object({ id: idParamSchema });
const reactionSchema = z.object({ emoji: z.enum(PAGE_REACTIONS, { error: `emoji must be one of ${PAGE_REACTIONS.join(' ')}` }) });

/** Drafts written per person an hour (a model call each), and per address. */
const GENERATE_PER_HOUR = { perAccount: 30, perIp: 120 };

/**
 * A Loop's newsletters as its owner runs them, and staff on every Loop (decision 0040), under
 * /api/loops/{id}/newsletters/... (registered by the Loop routes, after their signed-in gate): the
 * SPEC's generate, preview, save and send, and approve (and withdraw it: unapprove), move and skip of a scheduled draft. A
 * member who is not the owner gets 403, anyone else 404 (services/loop-access.ts).
 */
const newsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config, writer } = app.ctx;
  /** The Loop, for its owner or staff: the caller learns nothing more than GET /api/loops/{id} tells them. */
  const managed = async (request: FastifyRequest, loopId: number) => {
    const access = await getLoopAccess(db, gatedUser(request), loopId);
    requireManage(access);
    return access;
  };
  const limitGenerate = app.attemptLimiter({
    name: 'newsletter-generate',
    windowMs: 60 * 60_000,
    perIp: GENERATE_PER_HOUR.perIp,
    perAccount: GENERATE_PER_HOUR.perAccount,
    account: (request) => `user:${gatedUser(request).id}`,
  });

  app.post('/:id/newsletters/generate', { preHandler: limitGenerate, schema: { params: loopParams } }, async (request, reply) => {
    const { params } = request;
    await managed(request, params.id);
    const row = await generateNewsletter(db, { loopId: params.id, now: clock(), writer });
    return reply.code(201).send({ newsletter: toNewsletter(row) } satisfies GenerateNewsletterAnswer);
  });

  app.get('/:id/newsletters/:newsletterId/preview', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    await managed(request, params.id);
    return toNewsletter(await getLoopNewsletter(db, params.id, params.newsletterId)) satisfies NewsletterPreview;
  });

  // The editor's live preview of unsaved Markdown: the public page's own renderer (decision 0041).
  app.post(
    '/:id/newsletters/:newsletterId/render',
    { schema: { params: newsletterParamsSchema, body: saveNewsletterSchema } },
    async (request) => {
      const { params } = request;
      const { loop } = await managed(request, params.id);
      const newsletter = await getLoopNewsletter(db, params.id, params.newsletterId);
      const answer = await renderNewsletterDraft(db, { loop, newsletter, content: request.body.content, publicUrl: config.PUBLIC_URL });
      return answer satisfies RenderNewsletterAnswer;
    },
  );

  app.put('/:id/newsletters/:newsletterId', { schema: { params: newsletterParamsSchema, body: saveNewsletterSchema } }, async (request) => {
    const { params } = request;
    await managed(request, params.id);
    const { content } = request.body;
    const row = await saveNewsletterDraft(db, { loopId: params.id, newsletterId: params.newsletterId, content });
    return { newsletter: toNewsletter(row) } satisfies SaveNewsletterAnswer;
  });

  /** What sending a newsletter now needs of the app: the time, and its links' and replies' settings. */
  const sending = () => ({
    now: clock(),
    publicUrl: config.PUBLIC_URL,
    mail: mailLinksOf(config),
  });

  app.post('/:id/newsletters/:newsletterId/send', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    const access = await managed(request, params.id);
    const sent = await sendNewsletter(db, {
      loopId: params.id,
      newsletterId: params.newsletterId,
      ...sending(),
      limits: access.role === 'staff' ? undefined : { secret: config.SESSION_SECRET, limits: newsletterSendLimits(config, params.id) },
    });
    return { newsletter: toNewsletter(sent.newsletter), textsQueued: sent.textsQueued } satisfies SendNewsletterAnswer;
  });

  app.post('/:id/newsletters/:newsletterId/approve', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    await managed(request, params.id);
    const approved = await approveNewsletter(db, { loopId: params.id, newsletterId: params.newsletterId, ...sending() });
    return { newsletter: toNewsletter(approved.newsletter), textsQueued: approved.textsQueued } satisfies SendNewsletterAnswer;
  });

  app.post('/:id/newsletters/:newsletterId/unapprove', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    await managed(request, params.id);
    const withdrawn = await unapproveNewsletter(db, { loopId: params.id, newsletterId: params.newsletterId });
    return { newsletter: toNewsletter(withdrawn) } satisfies ScheduledNewsletterAnswer;
  });

  app.post(
    '/:id/newsletters/:newsletterId/move',
    { schema: { params: newsletterParamsSchema, body: moveNewsletterSchema } },
    async (request) => {
      const { params } = request;
      await managed(request, params.id);
      const moved = await moveNewsletter(db, {
        loopId: params.id,
        newsletterId: params.newsletterId,
        sendAt: request.body.sendAt,
        now: clock(),
      });
      return { newsletter: toNewsletter(moved) } satisfies ScheduledNewsletterAnswer;
    },
  );

  app.post('/:id/newsletters/:newsletterId/skip', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    await managed(request, params.id);
    const skipped = await skipNewsletter(db, { loopId: params.id, newsletterId: params.newsletterId, now: clock() });
    return { newsletter: toNewsletter(skipped) } satisfies ScheduledNewsletterAnswer;
  });

  // A member's tap on an emoji under a sent issue, on its page (decision 0056): on, or off again.
  // Any active member and the owner; staff, who are not in the Loop, react to nothing.
  app.post(
    '/:id/newsletters/:newsletterId/reactions',
    { schema: { params: newsletterParamsSchema, body: reactionSchema } },
    async (request) => {
      const { params } = request;
      const access = await getLoopAccess(db, gatedUser(request), params.id);
      if (access.role === 'staff') throw new AppError('forbidden', "Only the Loop's members can react to its newsletters.");
      const found = await toggleReaction(db, {
        newsletterId: params.newsletterId,
        loopId: params.id,
        userId: access.user.id,
        emoji: request.body.emoji,
      });
      if (!found) throw new AppError('not_found', 'Newsletter not found. Only a sent newsletter takes reactions.');
      const shown = await listReactions(db, params.newsletterId);
      return { reactions: shown.map((r) => ({ firstName: r.firstName, body: r.body, mine: r.userId === access.user.id })) };
    },
  );
};

export default newsletterRoutes;
