import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminLoopDetailQuerySchema,
  adminLoopsQuerySchema,
  adminNewslettersQuerySchema,
  groupMessageSchema,
  PAGE_HEADERS,
  setFrequencySchema,
} from '@loop/shared/admin';
import { idParamSchema } from '@loop/shared/loops';
import { gate, gatedUser, staffOnly } from '../../../plugins/session';
import { createGroupMessage } from '../../../services/group-messages/create-group-message';
import { getAdminLoopDetail } from '../../../services/admin/get-admin-loop-detail';
import { getAdminStats } from '../../../services/admin/get-admin-stats';
import { listAdminLoops } from '../../../services/admin/list-admin-loops';
import { listAdminNewsletters } from '../../../services/admin/list-admin-newsletters';
import { setLoopFrequency, toggleLoopPause } from '../../../services/admin/update-loop-admin';
import { getLoopSummary } from '../../../services/loops/get-loop-summary';

const loopParams = z.object({ id: idParamSchema });

/** Decision 0004 and 0007: the exact total, and where the next page is (its number and its cursor). */
function pageHeaders(total: number, next: { page: number; cursor: string } | null): Record<string, string> {
  const headers: Record<string, string> = { [PAGE_HEADERS.total]: String(total) };
  if (next) {
    headers[PAGE_HEADERS.nextPage] = String(next.page);
    headers[PAGE_HEADERS.nextCursor] = next.cursor;
  }
  return headers;
}

/** /api/admin/*: staff only (401 signed out, 403 for everyone else), checked before anything else runs. */
const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, staffOnly);
  const { db, clock } = app.ctx;

  app.get('/stats', async () => getAdminStats(db, app.ctx.growthCache, clock()));

  app.get('/loops', { schema: { querystring: adminLoopsQuerySchema } }, async (request, reply) => {
    const { loops, total, next } = await listAdminLoops(db, request.query);
    return reply.headers(pageHeaders(total, next)).send(loops);
  });

  app.get('/newsletters', { schema: { querystring: adminNewslettersQuerySchema } }, async (request, reply) => {
    const { newsletters, total, next } = await listAdminNewsletters(db, request.query);
    return reply.headers(pageHeaders(total, next)).send(newsletters);
  });

  app.get('/loops/:id', { schema: { params: loopParams, querystring: adminLoopDetailQuerySchema } }, async (request) =>
    getAdminLoopDetail(app.ctx, request.params.id, { now: clock(), allMembers: request.query.members === 'all' }),
  );

  app.post('/loops/:id/toggle-pause', { schema: { params: loopParams } }, async (request) => toggleLoopPause(db, request.params.id));

  app.put('/loops/:id/frequency', { schema: { params: loopParams, body: setFrequencySchema } }, async (request) =>
    setLoopFrequency(db, request.params.id, request.body.frequency, clock()),
  );

  app.post('/loops/:id/bulk-sms', { schema: { params: loopParams, body: groupMessageSchema } }, async (request) => {
    const { id } = request.params;
    const { message } = request.body;
    await getLoopSummary(db, id);
    // Staff's group message: sent now, not limited; kept with the owner's in group_messages (decision 0042).
    const { queued } = await createGroupMessage(db, {
      loopId: id,
      sender: gatedUser(request),
      message,
      sendAt: null,
      now: clock(),
      limits: [],
      secret: app.ctx.config.SESSION_SECRET,
    });
    return { queued };
  });
};

export default adminRoutes;
