import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { invitationAnswerSchema, invitationListSchema, invitationParamsSchema } from '@loop/shared/invitations';
import { gate, gatedUser, signedIn } from '../../../plugins/session';
import { acceptInvitation } from '../../../services/members/accept-invitation';
import { declineInvitation } from '../../../services/members/decline-invitation';
import { listInvitations } from '../../../services/members/list-invitations';

/**
 * /api/invitations: the signed-in person's own invitations to Loops, to accept or decline one at a
 * time (decision 0035). Only memberships of the session's own proven phone; anything else is a 404.
 */
const invitationRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, signedIn);
  const { db, clock } = app.ctx;

  app.get('/', { prefixTrailingSlash: 'no-slash', schema: { response: { 200: invitationListSchema } } }, async (request) =>
    listInvitations(db, gatedUser(request).id, clock()),
  );

  app.post(
    '/:membershipId/accept',
    { schema: { params: invitationParamsSchema, response: { 200: invitationAnswerSchema } } },
    async (request) => acceptInvitation(db, gatedUser(request).id, request.params.membershipId, clock()),
  );

  app.post(
    '/:membershipId/decline',
    { schema: { params: invitationParamsSchema, response: { 200: invitationAnswerSchema } } },
    async (request) => declineInvitation(db, gatedUser(request).id, request.params.membershipId),
  );
};

export default invitationRoutes;
