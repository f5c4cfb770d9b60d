import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { groupMessageSchema } from '@loop/shared/admin';
import { groupMessageParamsSchema, sendGroupMessageSchema, type SentGroupMessageAnswer, type TextCost } from '@loop/shared/group-messages';
import { idParamSchema } from '@loop/shared/loops';
import { gatedUser } from '../../../../plugins/session';
import { getLoopAccess, requireManage } from '../../../../services/loop-access';
import { cancelGroupMessage } from '../../../../services/group-messages/cancel-group-message';
import { createGroupMessage } from '../../../../services/group-messages/create-group-message';
import { groupMessageLimits } from '../../../../services/group-messages/group-message-limits';
import { listGroupMessages } from '../../../../services/group-messages/list-group-messages';
import { previewGroupMessage } from '../../../../services/group-messages/preview-group-message';

const loopParams = z.object({ id: idParamSchema });

/**
 * A Loop's group messages, under /api/loops/{id}/group-messages (registered by the Loop routes,
 * after their signed-in gate; decision 0042): its owner and staff only (a member 403, anyone else
 * 404, by loop-access). An owner's count against GROUP_MESSAGES_PER_LOOP_PER_DAY; staff's do not.
 */
const groupMessageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config } = app.ctx;

  const manage = async (user: Parameters<typeof getLoopAccess>[1], loopId: number) => {
    const access = await getLoopAccess(db, user, loopId);
    requireManage(access);
    return access;
  };

  app.post('/:id/group-messages/preview', { schema: { params: loopParams, body: groupMessageSchema } }, async (request) => {
    const access = await manage(gatedUser(request), request.params.id);
    return (await previewGroupMessage(db, {
      loopId: access.loop.id,
      senderId: access.user.id,
      senderName: access.user.firstName,
      message: request.body.message,
    })) satisfies TextCost;
  });

  app.post('/:id/group-messages', { schema: { params: loopParams, body: sendGroupMessageSchema } }, async (request, reply) => {
    const access = await manage(gatedUser(request), request.params.id);
    const now = clock();
    const { row, queued } = await createGroupMessage(db, {
      loopId: access.loop.id,
      sender: access.user,
      message: request.body.message,
      sendAt: request.body.sendAt ? new Date(request.body.sendAt) : null,
      now,
      limits: access.role === 'staff' ? [] : groupMessageLimits(config, access.loop.id),
      secret: config.SESSION_SECRET,
    });
    const [groupMessage] = await listGroupMessages(db, access.loop.id, row.id);
    if (!groupMessage) throw new Error('group message vanished');
    return reply.code(201).send({ groupMessage, queued } satisfies SentGroupMessageAnswer);
  });

  app.get('/:id/group-messages', { schema: { params: loopParams } }, async (request) => {
    const access = await manage(gatedUser(request), request.params.id);
    return listGroupMessages(db, access.loop.id);
  });

  app.post('/:id/group-messages/:messageId/cancel', { schema: { params: groupMessageParamsSchema } }, async (request) => {
    const access = await manage(gatedUser(request), request.params.id);
    await cancelGroupMessage(db, access.loop.id, request.params.messageId);
    return { ok: true };
  });
};

export default groupMessageRoutes;
