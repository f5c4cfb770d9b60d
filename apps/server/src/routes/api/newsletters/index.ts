import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { idParamSchema } from '@loop/shared/loops';
import {
  newsletterParamsSchema,
  saveNewsletterSchema,
  type GenerateNewsletterAnswer,
  type NewsletterPreview,
  type SaveNewsletterAnswer,
  type SendNewsletterAnswer,
  type SneakPeekAnswer,
} from '@loop/shared/newsletters';
import { parseInput } from '../../../errors';
import { createNewsletterWriter } from '../../../newsletters/create-writer';
import { requireStaff } from '../../../plugins/session';
import { getLoopAccess } from '../../../services/loop-access';
import { generateNewsletter } from '../../../services/newsletters/generate-newsletter';
import { getLoopNewsletter } from '../../../services/newsletters/get-loop-newsletter';
import { saveNewsletterDraft } from '../../../services/newsletters/save-newsletter-draft';
import { sendNewsletter } from '../../../services/newsletters/send-newsletter';
import { sendSneakPeek } from '../../../services/newsletters/send-sneak-peek';
import { toNewsletter } from '../../../services/newsletters/to-newsletter';

const loopParams = z.object({ id: idParamSchema });

/**
 * Newsletters and sneak peeks of a Loop, under /api/loops/{id}/...: staff only (401 signed out,
 * 403 for everyone else, then 404 for an unknown Loop or a newsletter of another Loop).
 */
const newsletterRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock, config } = app.ctx;
  const writer = createNewsletterWriter(config, app.log);

  /** The staff member and the Loop, in that order: a non-staff caller learns nothing about the Loop. */
  async function staffLoop(request: FastifyRequest, params: { id: number }) {
    const user = requireStaff(request);
    await getLoopAccess(db, user, params.id);
  }

  app.post('/:id/newsletters/generate', async (request, reply) => {
    const params = parseInput(loopParams, request.params);
    await staffLoop(request, params);
    const row = await generateNewsletter(db, { loopId: params.id, now: clock(), writer });
    return reply.code(201).send({ newsletter: toNewsletter(row) } satisfies GenerateNewsletterAnswer);
  });

  app.get('/:id/newsletters/:newsletterId/preview', async (request) => {
    const params = parseInput(newsletterParamsSchema, request.params);
    await staffLoop(request, params);
    return toNewsletter(await getLoopNewsletter(db, params.id, params.newsletterId)) satisfies NewsletterPreview;
  });

  app.put('/:id/newsletters/:newsletterId', async (request) => {
    const params = parseInput(newsletterParamsSchema, request.params);
    await staffLoop(request, params);
    const { content } = parseInput(saveNewsletterSchema, request.body);
    const row = await saveNewsletterDraft(db, { loopId: params.id, newsletterId: params.newsletterId, content });
    return { newsletter: toNewsletter(row) } satisfies SaveNewsletterAnswer;
  });

  app.post('/:id/newsletters/:newsletterId/send', async (request) => {
    const params = parseInput(newsletterParamsSchema, request.params);
    await staffLoop(request, params);
    const sent = await sendNewsletter(db, { loopId: params.id, newsletterId: params.newsletterId, now: clock(), publicUrl: config.PUBLIC_URL });
    return { newsletter: toNewsletter(sent.newsletter), textsQueued: sent.textsQueued } satisfies SendNewsletterAnswer;
  });

  app.post('/:id/sneak-peek', async (request, reply) => {
    const params = parseInput(loopParams, request.params);
    await staffLoop(request, params);
    const sent = await sendSneakPeek(db, { loopId: params.id, now: clock(), writer, publicUrl: config.PUBLIC_URL });
    return reply.code(201).send({ newsletter: toNewsletter(sent.newsletter), textsQueued: sent.textsQueued } satisfies SneakPeekAnswer);
  });
};

export default newsletterRoutes;
