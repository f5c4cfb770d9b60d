import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { updateUserSchema } from '@loop/shared/auth';
import { gate, gatedUser, signedIn } from '../../../plugins/session';
import { toPublicUser } from '../../../services/users/to-public-user';
import { updateUser } from '../../../services/users/update-user';
import accountDataRoutes from './account-data';

/** GET, PUT and DELETE /api/user, and /api/user/export: the signed-in person's own account. Signed out is a 401 before the input is looked at. */
const userRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, signedIn);

  app.get('/', { prefixTrailingSlash: 'no-slash' }, async (request) => toPublicUser(gatedUser(request)));

  app.put('/', { prefixTrailingSlash: 'no-slash', schema: { body: updateUserSchema } }, async (request) =>
    toPublicUser(await updateUser(app.ctx.db, gatedUser(request).id, request.body, app.ctx.clock())),
  );

  // Download my data, delete my account (decision 0045).
  await app.register(accountDataRoutes);
};

export default userRoutes;
