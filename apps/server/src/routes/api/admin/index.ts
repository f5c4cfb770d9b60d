import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { adminLoopDetailQuerySchema, adminLoopsQuerySchema, adminNewslettersQuerySchema, bulkMessageSchema, PAGE_HEADERS, setFrequencySchema } from '@loop/shared/admin';
import { idParamSchema } from '@loop/shared/loops';
import { parseInput } from '../../../errors';
import { requireStaff } from '../../../plugins/session';
import { getAdminLoopDetail } from '../../../services/admin/get-admin-loop-detail';
import { getAdminStats } from '../../../services/admin/get-admin-stats';
import { listAdminLoops } from '../../../services/admin/list-admin-loops';
import { listAdminNewsletters } from '../../../services/admin/list-admin-newsletters';
import { sendGroupText } from '../../../services/admin/send-group-text';
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
const adminRoutes: FastifyPluginAsync = async (app) => {
  const { db, clock } = app.ctx;
  app.addHook('onRequest', async (request) => {
    requireStaff(request);
  });

  app.get('/stats', async () => getAdminStats(db, clock()));

  app.get('/loops', async (request, reply) => {
    const query = parseInput(adminLoopsQuerySchema, request.query);
    const { loops, total, next } = await listAdminLoops(db, query);
    return reply.headers(pageHeaders(total, next)).send(loops);
  });

  app.get('/newsletters', async (request, reply) => {
    const query = parseInput(adminNewslettersQuerySchema, request.query);
    const { newsletters, total, next } = await listAdminNewsletters(db, query);
    return reply.headers(pageHeaders(total, next)).send(newsletters);
  });

  app.get('/loops/:id', async (request) => {
    const { id } = parseInput(loopParams, request.params);
    const { members } = parseInput(adminLoopDetailQuerySchema, request.query);
    return getAdminLoopDetail(db, id, { now: clock(), allMembers: members === 'all' });
  });

  app.post('/loops/:id/toggle-pause', async (request) => {
    const { id } = parseInput(loopParams, request.params);
    return toggleLoopPause(db, id);
  });

  app.put('/loops/:id/frequency', async (request) => {
    const { id } = parseInput(loopParams, request.params);
    const { frequency } = parseInput(setFrequencySchema, request.body);
    return setLoopFrequency(db, id, frequency, clock());
  });

  app.post('/loops/:id/bulk-sms', async (request) => {
    const { id } = parseInput(loopParams, request.params);
    const { message } = parseInput(bulkMessageSchema, request.body);
    await getLoopSummary(db, id);
    return { queued: await sendGroupText(db, { loopId: id, message }) };
  });
};

export default adminRoutes;
