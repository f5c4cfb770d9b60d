import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@loop/shared/loops';
import {
  newsletterParamsSchema,
  saveNewsletterSchema,
  type GenerateNewsletterAnswer,
  type NewsletterPreview,
  type RenderNewsletterAnswer,
  type SaveNewsletterAnswer,
  type SendNewsletterAnswer,
  type SneakPeekAnswer,
  type SneakPeekPreview,
} from '@loop/shared/newsletters';
import { gate, gatedUser, staffOnly } from '../../../../plugins/session';
import { getLoopAccess } from '../../../../services/loop-access';
import { generateNewsletter } from '../../../../services/newsletters/generate-newsletter';
import { getLoopNewsletter } from '../../../../services/newsletters/get-loop-newsletter';
import { renderNewsletterDraft } from '../../../../services/newsletters/render-draft';
import { saveNewsletterDraft } from '../../../../services/newsletters/save-newsletter-draft';
import { sendNewsletter } from '../../../../services/newsletters/send-newsletter';
import { previewSneakPeek, sendSneakPeek } from '../../../../services/newsletters/send-sneak-peek';
import { toNewsletter } from '../../../../services/newsletters/to-newsletter';

const loopParams = z.object({ id: idParamSchema });

/**
 * Newsletters and sneak peeks of a Loop, under /api/loops/{id}/... (registered by the Loop routes,
 * after their gate): staff only (401 signed out, 403 for everyone else, then a 400 for bad input,
 * then 404 for an unknown Loop or a newsletter of another Loop; decision 0018). The gate comes
 * before the Loop: a non-staff caller learns nothing about it.
 */
const staffNewsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, staffOnly);
  const { db, clock, config, writer } = app.ctx;

  app.post('/:id/newsletters/generate', { schema: { params: loopParams } }, async (request, reply) => {
    const { params } = request;
    await getLoopAccess(db, gatedUser(request), params.id);
    const row = await generateNewsletter(db, { loopId: params.id, now: clock(), writer });
    return reply.code(201).send({ newsletter: toNewsletter(row) } satisfies GenerateNewsletterAnswer);
  });

  app.get('/:id/newsletters/:newsletterId/preview', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    await getLoopAccess(db, gatedUser(request), params.id);
    return toNewsletter(await getLoopNewsletter(db, params.id, params.newsletterId)) satisfies NewsletterPreview;
  });

  // The editor's live preview of unsaved Markdown: the public page's own renderer (decision 0041).
  app.post(
    '/:id/newsletters/:newsletterId/render',
    { schema: { params: newsletterParamsSchema, body: saveNewsletterSchema } },
    async (request) => {
      const { params } = request;
      const { loop } = await getLoopAccess(db, gatedUser(request), params.id);
      const newsletter = await getLoopNewsletter(db, params.id, params.newsletterId);
      const answer = await renderNewsletterDraft(db, { loop, newsletter, content: request.body.content, publicUrl: config.PUBLIC_URL });
      return answer satisfies RenderNewsletterAnswer;
    },
  );

  app.put('/:id/newsletters/:newsletterId', { schema: { params: newsletterParamsSchema, body: saveNewsletterSchema } }, async (request) => {
    const { params } = request;
    await getLoopAccess(db, gatedUser(request), params.id);
    const { content } = request.body;
    const row = await saveNewsletterDraft(db, { loopId: params.id, newsletterId: params.newsletterId, content });
    return { newsletter: toNewsletter(row) } satisfies SaveNewsletterAnswer;
  });

  app.post('/:id/newsletters/:newsletterId/send', { schema: { params: newsletterParamsSchema } }, async (request) => {
    const { params } = request;
    await getLoopAccess(db, gatedUser(request), params.id);
    const sent = await sendNewsletter(db, {
      loopId: params.id,
      newsletterId: params.newsletterId,
      now: clock(),
      publicUrl: config.PUBLIC_URL,
    });
    return { newsletter: toNewsletter(sent.newsletter), textsQueued: sent.textsQueued } satisfies SendNewsletterAnswer;
  });

  // What the sneak peek would text, to how many, at what cost: the page shows it and asks to confirm.
  app.get('/:id/sneak-peek/preview', { schema: { params: loopParams } }, async (request) => {
    const { params } = request;
    await getLoopAccess(db, gatedUser(request), params.id);
    return (await previewSneakPeek(db, { loopId: params.id, now: clock(), publicUrl: config.PUBLIC_URL })) satisfies SneakPeekPreview;
  });

  app.post('/:id/sneak-peek', { schema: { params: loopParams } }, async (request, reply) => {
    const { params } = request;
    await getLoopAccess(db, gatedUser(request), params.id);
    const sent = await sendSneakPeek(db, { loopId: params.id, now: clock(), writer, publicUrl: config.PUBLIC_URL });
    return reply.code(201).send({ newsletter: toNewsletter(sent.newsletter), textsQueued: sent.textsQueued } satisfies SneakPeekAnswer);
  });
};

export default staffNewsletterRoutes;
