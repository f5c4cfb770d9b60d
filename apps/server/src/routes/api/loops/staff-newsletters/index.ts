import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@loop/shared/loops';
import { type SneakPeekAnswer, type SneakPeekPreview } from '@loop/shared/newsletters';
import { gate, gatedUser, staffOnly } from '../../../../plugins/session';
import { getLoopAccess } from '../../../../services/loop-access';
import { previewSneakPeek, sendSneakPeek } from '../../../../services/newsletters/send-sneak-peek';
import { toNewsletter } from '../../../../services/newsletters/to-newsletter';

const loopParams = z.object({ id: idParamSchema });

/**
 * Sneak peeks of a Loop, under /api/loops/{id}/... (registered by the Loop routes, after their
 * gate; its newsletters are in ../newsletters/, for the owner too): staff only (401 signed out, 403 for everyone else, then a 400 for bad input,
 * then 404 for an unknown Loop or a newsletter of another Loop; decision 0018). The gate comes
 * before the Loop: a non-staff caller learns nothing about it.
 */
const staffNewsletterRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, staffOnly);
  const { db, clock, config, writer } = app.ctx;

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
