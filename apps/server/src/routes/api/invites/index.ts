import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InvitePreview } from '@loop/shared/loops';
import { joinLoopSchema } from '@loop/shared/loops';
import { toE164 } from '@loop/shared/phone';
import { addressKey } from '../../../lib/address-key';
import { refuseUntextableNumber } from '../../../messaging/recipients';
import { findInvite } from '../../../services/invites/find-invite';
import { joinLoop } from '../../../services/invites/join-loop';

const codeParams = z.object({
  code: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'This invite link is not valid. Check the link, or ask for a new one.'),
});

/** Joins are limited per phone number; a request without one counts against its address. */
function phoneOf(request: FastifyRequest): string {
  const phone = (request.body as Record<string, unknown> | undefined)?.phoneNumber;
  return typeof phone === 'string' ? (toE164(phone) ?? phone.trim()) : `ip:${addressKey(request.ip)}`;
}

/** /api/invites/{code}: public, for people who hold an invite link. Every try counts, good input or bad (decision 0018). */
const inviteRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, config } = app.ctx;
  const limitAttempts = app.attemptLimiter({
    name: 'join',
    perIp: config.AUTH_RATE_LIMIT_PER_IP,
    perAccount: config.AUTH_RATE_LIMIT_PER_ACCOUNT,
    windowMs: 15 * 60_000,
    account: phoneOf,
  });

  app.get('/:code', { preValidation: limitAttempts, schema: { params: codeParams } }, async (request): Promise<InvitePreview> => {
    const { invite, loop, invitedBy } = await findInvite(db, request.params.code, clock());
    return { loopName: loop.name, expiresAt: invite.expiresAt.toISOString(), invitedBy };
  });

  app.post('/:code/join', { preValidation: limitAttempts, schema: { params: codeParams, body: joinLoopSchema } }, async (request) => {
    refuseUntextableNumber(config, request.body.phoneNumber);
    return joinLoop(db, { code: request.params.code, input: request.body, config, now: clock() });
  });
};

export default inviteRoutes;
