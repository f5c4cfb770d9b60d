import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  addMemberSchema,
  COVER_UPLOAD_MAX_BASE64,
  setCoverSchema,
  createLoopSchema,
  idParamSchema,
  loopDetailResponseSchema,
  transferLoopSchema,
  updateLoopSchema,
  updateMemberSchema,
} from '@loop/shared/loops';
import { refuseUntextableNumber } from '../../../messaging/recipients';
import { gate, gatedUser, signedIn } from '../../../plugins/session';
import { createInvite } from '../../../services/invites/create-invite';
import { readInviteStatus } from '../../../services/invites/read-invite-status';
import { getLoopAccess, requireManage, requireOwner } from '../../../services/loop-access';
import { createLoop } from '../../../services/loops/create-loop';
import { deleteLoop } from '../../../services/loops/delete-loop';
import { getLoopDetail } from '../../../services/loops/get-loop-detail';
import { findLoopCover, removeLoopCover, setLoopCover } from '../../../services/loops/loop-cover';
import { listLoops } from '../../../services/loops/list-loops';
import { transferLoop } from '../../../services/loops/transfer-loop';
import { updateLoop } from '../../../services/loops/update-loop';
import { addMember } from '../../../services/members/add-member';
import { removeMember } from '../../../services/members/remove-member';
import { listLoopNewsletters } from '../../../services/newsletters/list-loop-newsletters';
import { updateMember } from '../../../services/members/update-member';
import { resendInvitation } from '../../../services/members/open-invitation';
import { deleteUpdate } from '../../../services/updates/delete-update';
import reminderRoutes from './reminders/index';
import groupMessageRoutes from './group-messages/index';
import newsletterRoutes from './newsletters/index';
import staffNewsletterRoutes from './staff-newsletters/index';

const loopParams = z.object({ id: idParamSchema });
const memberParams = z.object({ id: idParamSchema, memberId: idParamSchema });
const updateParams = z.object({ id: idParamSchema, updateId: idParamSchema });

/**
 * /api/loops: the signed-in person's Loops, and everything on one Loop. Every route asks loop-access.
 * Signed out is a 401 before the input is looked at; then the input (a 400), then the Loop (decision 0018).
 */
const loopRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, signedIn);
  const { db, clock, config, storage } = app.ctx;
  /** Media files go once their rows are committed away; a failure leaves an unservable file, never a broken row. */
  const removeMediaFiles = async (keys: string[]) => {
    for (const key of keys)
      await storage.delete(key).catch((error: unknown) => app.log.warn({ err: error, key }, 'could not delete a media file'));
  };

  // /api/loops only, not /api/loops/ too: Fastify would register both from one route object, which
  // the API description then lists twice under the second path.
  app.get('/', { prefixTrailingSlash: 'no-slash' }, async (request) => listLoops(db, gatedUser(request)));

  app.post('/', { prefixTrailingSlash: 'no-slash', schema: { body: createLoopSchema } }, async (request, reply) => {
    const user = gatedUser(request);
    const loop = await createLoop(db, request.body, { creatorId: user.id, config, now: clock() });
    // Texts work in the Phone Simulator, they just stay on this machine: not "disabled".
    const smsStatus = config.messagingProvider === 'twilio' ? 'enabled' : 'simulated';
    return reply.code(201).send({ ...loop, smsStatus });
  });

  app.get('/:id', { schema: { params: loopParams, response: { 200: loopDetailResponseSchema } } }, async (request) => {
    const { id } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    return {
      ...(await getLoopDetail(db, id, access.role, { now: clock(), viewerId: access.user.id })),
      cover: await findLoopCover(db, id),
    };
  });

  app.get('/:id/newsletters', { schema: { params: loopParams } }, async (request) => {
    const { id } = request.params;
    return listLoopNewsletters(db, await getLoopAccess(db, gatedUser(request), id));
  });

  app.put('/:id', { schema: { params: loopParams, body: updateLoopSchema } }, async (request) => {
    const { id } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireManage(access);
    return updateLoop(db, access.loop, request.body, clock(), config.QUIET_HOURS);
  });

  // The Loop's cover photo: one of its updates' photos, or one uploaded (JSON, base64), for its
  // organizers and staff; the page, e-mail and print view show it.
  app.put(
    '/:id/cover',
    { bodyLimit: COVER_UPLOAD_MAX_BASE64 + 4096, schema: { params: loopParams, body: setCoverSchema } },
    async (request) => {
      const { id } = request.params;
      const access = await getLoopAccess(db, gatedUser(request), id);
      requireManage(access);
      await removeMediaFiles(await setLoopCover(db, storage, id, request.body));
      return { cover: await findLoopCover(db, id) };
    },
  );

  app.delete('/:id/cover', { schema: { params: loopParams } }, async (request) => {
    const { id } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireManage(access);
    await removeMediaFiles(await removeLoopCover(db, id));
    return { cover: null };
  });

  app.delete('/:id', { schema: { params: loopParams } }, async (request) => {
    const { id } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireOwner(access);
    await removeMediaFiles(await deleteLoop(db, id));
    return { ok: true };
  });

  app.get('/:id/invite', { schema: { params: loopParams } }, async (request) => {
    const { id } = request.params;
    requireManage(await getLoopAccess(db, gatedUser(request), id));
    return readInviteStatus(db, { loopId: id, config, now: clock() });
  });

  app.post('/:id/invite', { schema: { params: loopParams } }, async (request, reply) => {
    const { id } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireManage(access);
    return reply.code(201).send(await createInvite(db, { loopId: id, createdById: access.user.id, now: clock() }));
  });

  app.post('/:id/members', { schema: { params: loopParams, body: addMemberSchema } }, async (request, reply) => {
    const { id } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireManage(access);
    refuseUntextableNumber(config, request.body.phoneNumber);
    const member = await addMember(db, { loop: access.loop, adder: access.user, input: request.body, config, now: clock() });
    return reply.code(201).send(member);
  });

  app.put('/:id/members/:memberId', { schema: { params: memberParams, body: updateMemberSchema } }, async (request) => {
    const { id, memberId } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    // Organizers do everything an owner does but appoint organizers (decision 0059).
    if (request.body.organizer !== undefined) requireOwner(access);
    else requireManage(access);
    return updateMember(db, {
      loop: access.loop,
      creatorId: access.loop.creatorId,
      memberId,
      input: request.body,
      adder: access.user,
      config,
      now: clock(),
    });
  });

  // Hands the Loop over to one of its members (decision 0059): the owner and staff.
  app.put('/:id/owner', { schema: { params: loopParams, body: transferLoopSchema } }, async (request) => {
    const { id } = request.params;
    requireOwner(await getLoopAccess(db, gatedUser(request), id));
    return transferLoop(db, { loopId: id, memberId: request.body.memberId });
  });

  app.post('/:id/members/:memberId/invitation', { schema: { params: memberParams } }, async (request) => {
    const { id, memberId } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireManage(access);
    await db.transaction((tx) => resendInvitation(tx, { loop: access.loop, memberId, adder: access.user, config, now: clock() }));
    return getLoopDetail(db, id, access.role, { now: clock(), viewerId: access.user.id });
  });

  app.delete('/:id/members/:memberId', { schema: { params: memberParams } }, async (request) => {
    const { id, memberId } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    requireManage(access);
    await removeMember(db, { loopId: id, creatorId: access.loop.creatorId, memberId });
    return { ok: true };
  });

  app.delete('/:id/updates/:updateId', { schema: { params: updateParams } }, async (request) => {
    const { id, updateId } = request.params;
    const access = await getLoopAccess(db, gatedUser(request), id);
    await removeMediaFiles(await deleteUpdate(db, access, updateId));
    return { ok: true };
  });

  // Group messages of the owner and staff (group-messages/): this folder's gate.
  await app.register(groupMessageRoutes);

  // The owner's reminder questions (reminders/), the owner's and staff's newsletter routes
  // (newsletters/), then staff's sneak peek (staff-newsletters/), share the prefix: this folder's
  // gate runs first, then theirs.
  await app.register(reminderRoutes);
  await app.register(newsletterRoutes);
  await app.register(staffNewsletterRoutes);
};

export default loopRoutes;
