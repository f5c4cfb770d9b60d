import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { simulatorPhoneParamsSchema, simulatorSendSchema, SIMULATOR_LIMITS } from '@loop/shared/simulator';
import { listSimulatorPhones } from '../../../services/phone-simulator/list-simulator-phones';
import { readPhoneThread } from '../../../services/phone-simulator/read-phone-thread';
import { sendSimulatedText } from '../../../services/phone-simulator/send-simulated-text';
import { requireUser } from '../../../plugins/session';
import { getSimulatorPhone } from '../../../services/phone-simulator/get-simulator-phone';
import { requireSimulatorUse } from '../../../services/simulator-access';

// Base64 is 4/3 of the bytes, plus the JSON around it.
const BODY_LIMIT = Math.ceil((SIMULATOR_LIMITS.totalBytes * 4) / 3) + 64 * 1024;

/**
 * The Phone Simulator's API, under /api/simulator: any signed-in user while Loop runs without Twilio, staff always.
 * A phone you may not play is a 404, the same as one that does not exist; who may play which phone,
 * and see which of its texts, is services/simulator-access.ts (decision 0015).
 */
const simulatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const viewer = (request: FastifyRequest) => {
    const user = requireUser(request);
    requireSimulatorUse(app.ctx.config, user);
    return user;
  };
  /** Who may use the simulator is checked before the input (decision 0018). */
  const mayView = async (request: FastifyRequest) => {
    viewer(request);
  };
  const visiblePhone = (request: FastifyRequest, phone: string) => getSimulatorPhone(app.ctx.db, viewer(request), phone);

  app.get('/phones', async (request) => ({ phones: await listSimulatorPhones(app.ctx.db, viewer(request)) }));

  app.get('/phones/:phone/messages', { preValidation: mayView, schema: { params: simulatorPhoneParamsSchema } }, async (request) => {
    const { phone, scope } = await visiblePhone(request, request.params.phone);
    return { phone, messages: await readPhoneThread(app.ctx.db, phone.phoneNumber, scope) };
  });

  app.post(
    '/phones/:phone/messages',
    { bodyLimit: BODY_LIMIT, preValidation: mayView, schema: { params: simulatorPhoneParamsSchema, body: simulatorSendSchema } },
    async (request, reply) => {
      const { phone, scope } = await visiblePhone(request, request.params.phone);
      const text = request.body;
      const { db, config, clock } = app.ctx;
      const stored = await sendSimulatedText(db, {
        phoneNumber: phone.phoneNumber,
        channel: text.channel ?? phone.messagingPreference,
        text,
        storage: app.ctx.storage,
        clipMaxBytes: { sms: config.MMS_MEDIA_MAX_BYTES, whatsapp: config.WHATSAPP_MEDIA_MAX_BYTES },
        scope,
        now: clock(),
      });
      return reply.code(202).send({ id: stored.id, status: 'received' });
    },
  );
};

export default simulatorRoutes;
