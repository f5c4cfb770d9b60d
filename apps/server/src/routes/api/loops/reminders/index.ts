import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idParamSchema } from '@loop/shared/loops';
import { ownQuestionsSchema } from '@loop/shared/reminder-questions';
import { gate, gatedUser, signedIn } from '../../../../plugins/session';
import { getLoopAccess, requireManage } from '../../../../services/loop-access';
import { listComingIssueSenders } from '../../../../services/reminders/list-coming-issue-senders';
import { getReminderQuestions, saveReminderQuestions } from '../../../../services/reminders/reminder-questions';

const loopParams = z.object({ id: idParamSchema });

/**
 * A Loop's reminders, under /api/loops/{id}/... (registered by the Loop routes): the owner's own
 * questions and who has sent something for the coming issue (decision 0043). The owner and staff
 * only: 401 signed out, then a 400 for bad input, 404 for a Loop the caller is not in, 403 for
 * its members.
 */
const reminderRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, signedIn);
  const { db } = app.ctx;

  app.get('/:id/reminder-questions', { schema: { params: loopParams } }, async (request) => {
    const access = await getLoopAccess(db, gatedUser(request), request.params.id);
    requireManage(access);
    return getReminderQuestions(db, access.loop);
  });

  app.put('/:id/reminder-questions', { schema: { params: loopParams, body: ownQuestionsSchema } }, async (request) => {
    const access = await getLoopAccess(db, gatedUser(request), request.params.id);
    requireManage(access);
    return saveReminderQuestions(db, access.loop, request.body.questions);
  });

  app.get('/:id/coming-issue', { schema: { params: loopParams } }, async (request) => {
    const access = await getLoopAccess(db, gatedUser(request), request.params.id);
    requireManage(access);
    return listComingIssueSenders(db, access.loop.id);
  });
};

export default reminderRoutes;
