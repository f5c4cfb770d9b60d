import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { deleteAccountSchema } from '@loop/shared/account-data';
import { users } from '../../../db/schema';
import { verifyPassword } from '../../../lib/passwords';
import { AppError } from '../../../errors';
import { clearSessionCookie, gatedUser } from '../../../plugins/session';
import { buildDataExports } from '../../../services/exports/build-data-exports';
import { getDataExport } from '../../../services/exports/get-data-export';
import { openDataExport } from '../../../services/exports/open-data-export';
import { requestDataExport } from '../../../services/exports/request-data-export';
import { deleteAccount } from '../../../services/users/delete-account';
import { listOwnedLoops } from '../../../services/users/list-owned-loops';

const WINDOW_MS = 15 * 60_000;
/** Passwords one account may try here in WINDOW_MS: a stolen session cannot guess its way to a delete. */
const DELETE_TRIES_PER_ACCOUNT = 10;

const downloadParams = z.object({
  exportId: z.coerce.number().int().positive(),
  token: z.string().max(100),
});

/**
 * "Download my data" and "Delete my account" (decision 0045), under /api/user and its signedIn
 * gate: the export is started here and built in the background (services/exports), its zip
 * downloaded by its owner alone; deleting the account asks the password again.
 */
const accountDataRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.ctx;
  const secret = config.SESSION_SECRET;
  // A wrong password here is a guess at it: limited per address and per account, like sign-in.
  const limitDeletes = app.attemptLimiter({
    name: 'account-delete',
    perIp: config.AUTH_RATE_LIMIT_PER_IP,
    windowMs: WINDOW_MS,
    account: (request) => String(gatedUser(request).id),
    perAccount: DELETE_TRIES_PER_ACCOUNT,
  });

  // The export this process is building, awaited at close so a test or a restart never cuts it.
  let building: Promise<unknown> = Promise.resolve();
  const buildInBackground = () => {
    building = building
      .then(() => buildDataExports(app.ctx))
      .catch((error: unknown) => app.log.error({ err: error }, 'a data export failed; the scheduler tries it again'));
  };
  app.addHook('onClose', async () => {
    await building;
  });

  app.get('/export', async (request) => getDataExport(app.ctx.db, gatedUser(request).id, app.ctx.clock(), secret));

  app.post('/export', async (request, reply) => {
    const user = gatedUser(request);
    const { replacedKeys } = await requestDataExport(app.ctx.db, user.id);
    for (const key of replacedKeys) await app.ctx.storage.delete(key);
    buildInBackground();
    reply.code(202);
    return getDataExport(app.ctx.db, user.id, app.ctx.clock(), secret);
  });

  app.get('/export/:exportId/:token', { schema: { params: downloadParams } }, async (request, reply) => {
    const user = gatedUser(request);
    const { exportId, token } = request.params;
    const file = await openDataExport(app.ctx, { userId: user.id, exportId, token, now: app.ctx.clock() });
    const day = file.readyAt.toISOString().slice(0, 10);
    reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="loop-data-${day}.zip"`)
      .header('cache-control', 'private, no-store');
    if (file.bytes !== null) reply.header('content-length', file.bytes);
    return reply.send(file.stream);
  });

  app.get('/owned-loops', async (request) => listOwnedLoops(app.ctx.db, gatedUser(request).id));

  app.delete(
    '/',
    { prefixTrailingSlash: 'no-slash', preValidation: limitDeletes, schema: { body: deleteAccountSchema } },
    async (request, reply) => {
      const user = gatedUser(request);
      const { password, handOver, deleteLoops } = request.body;
      const [row] = await app.ctx.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, user.id));
      if (!(await verifyPassword(row?.passwordHash, password))) {
        throw new AppError('forbidden', 'That password is not right. Nothing was deleted.');
      }
      const keys = await app.ctx.db.transaction((tx) =>
        deleteAccount(tx, { userId: user.id, handOver, deleteLoops, reason: 'account_deleted', now: app.ctx.clock() }),
      );
      for (const key of keys) {
        await app.ctx.storage.delete(key).catch((error: unknown) => app.log.warn({ err: error, key }, 'could not delete a file'));
      }
      clearSessionCookie(reply);
      return { ok: true };
    },
  );
};

export default accountDataRoutes;
