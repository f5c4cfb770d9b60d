import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { simulatorPhoneParamsSchema, simulatorSendSchema, SIMULATOR_LIMITS } from '@loop/shared/simulator';
import { gate, gatedUser } from '../../../plugins/session';
import { getSimulatorPhone } from '../../../services/phone-simulator/get-simulator-phone';
import { listSimulatorPhones } from '../../../services/phone-simulator/list-simulator-phones';
import { readPhoneThread } from '../../../services/phone-simulator/read-phone-thread';
import { sendSimulatedText } from '../../../services/phone-simulator/send-simulated-text';
import { simulatorUse } from '../../../services/simulator-access';

// Base64 is 4/3 of the bytes, plus the JSON around it.
const BODY_LIMIT = Math.ceil((SIMULATOR_LIMITS.totalBytes * 4) / 3) + 64 * 1024;

/**
 * The Phone Simulator's API, under /api/simulator. Its gate: any signed-in user while Loop runs
 * without Twilio, staff always (401, then 403, before the input; decision 0018). A phone you may
 * not play is a 404, the same as one that does not exist. Who may use it, play which phone and see
 * which of its texts is services/simulator-access.ts (decision 0015).
 */
const simulatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.ctx;
  gate(app, (user) => simulatorUse(config, user));
  const visiblePhone = (request: FastifyRequest, phone: string) => getSimulatorPhone(app.ctx.db, gatedUser(request), phone);

  app.get('/phones', async (request) => ({ phones: await listSimulatorPhones(app.ctx.db, gatedUser(request)) }));

  app.get('/phones/:phone/messages', { schema: { params: simulatorPhoneParamsSchema } }, async (request) => {
    const { phone, scope } = await visiblePhone(request, request.params.phone);
    return { phone, messages: await readPhoneThread(app.ctx.db, phone.phoneNumber, scope) };
  });

  app.post(
    '/phones/:phone/messages',
    { bodyLimit: BODY_LIMIT, schema: { params: simulatorPhoneParamsSchema, body: simulatorSendSchema } },
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
