import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { simulatorPhoneParamsSchema, simulatorSendSchema, SIMULATOR_FILES_HEADER } from '@loop/shared/simulator';
import { AppError, parseInput } from '../../../errors';
import { gate, gatedUser } from '../../../plugins/session';
import { listSimulatorEmails } from '../../../services/mail-simulator/list-simulator-emails';
import { getSimulatorPhone } from '../../../services/phone-simulator/get-simulator-phone';
import { listSimulatorPhones } from '../../../services/phone-simulator/list-simulator-phones';
import { readPhoneThread } from '../../../services/phone-simulator/read-phone-thread';
import { sendSimulatedText } from '../../../services/phone-simulator/send-simulated-text';
import { isMailSimulated, playedPhoneRefusal, simulatorUse } from '../../../services/simulator-access';
import { readSimulatorForm } from './read-simulator-form';

/**
 * The Phone Simulator's API, under /api/simulator. Its gate: any signed-in user while Loop runs
 * without Twilio, staff always (401, then 403, before the input; decision 0018). A phone you may
 * not play is a 404, the same as one that does not exist. Who may use it, play which phone and see
 * which of its texts is services/simulator-access.ts (decision 0015). A text's photos, voice memos
 * and videos come as multipart files, read as a stream under each channel's limits; JSON bodies
 * keep the app's 1 MiB limit (decision 0032). The Mail Simulator's list (GET /mail) has the same gate,
 * and is a 404 while real e-mail is on (SMTP_URL): then Loop keeps no e-mail to show.
 */
const simulatorRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.ctx;
  gate(app, (user) => simulatorUse(config, user));
  // Here only: every other route takes JSON alone. The handler reads the parts as they stream in.
  await app.register(multipart);
  const visiblePhone = (request: FastifyRequest, phone: string) => getSimulatorPhone(app.ctx.db, gatedUser(request), phone);

  app.get('/phones', async (request) => ({ phones: await listSimulatorPhones(app.ctx.db, gatedUser(request)) }));

  app.get('/mail', async (request) => {
    if (!isMailSimulated(config)) throw new AppError('not_found', 'The Mail Simulator is off: Loop is sending real e-mail.');
    return { emails: await listSimulatorEmails(app.ctx.db, gatedUser(request), { mailFrom: config.MAIL_FROM }) };
  });

  app.get('/phones/:phone/messages', { schema: { params: simulatorPhoneParamsSchema } }, async (request) => {
    const { phone, scope } = await visiblePhone(request, request.params.phone);
    return { phone, messages: await readPhoneThread(app.ctx.db, phone.phoneNumber, scope) };
  });

  app.post(
    '/phones/:phone/messages',
    {
      // Files only with the header a cross-site form cannot send (plugins/security.ts).
      config: { multipartHeader: SIMULATOR_FILES_HEADER },
      schema: { params: simulatorPhoneParamsSchema, body: simulatorSendSchema },
    },
    async (request, reply) => {
      const { phone, scope } = await visiblePhone(request, request.params.phone);
      const { db, config, clock } = app.ctx;
      const clipMaxBytes = { sms: config.MMS_MEDIA_MAX_BYTES, whatsapp: config.WHATSAPP_MEDIA_MAX_BYTES };
      const form = request.isMultipart()
        ? await readSimulatorForm(request, { defaultChannel: phone.messagingPreference, clipMaxBytes })
        : null;
      const text = form ? parseInput(simulatorSendSchema, form.fields) : request.body;
      const refusal = playedPhoneRefusal(phone, scope, text.body);
      if (refusal) throw new AppError('bad_request', refusal);
      const stored = await sendSimulatedText(db, {
        phoneNumber: phone.phoneNumber,
        channel: text.channel ?? phone.messagingPreference,
        text,
        files: form?.files ?? [],
        storage: app.ctx.storage,
        clipMaxBytes,
        scope,
        now: clock(),
      });
      return reply.code(202).send({ id: stored.id, status: 'received' });
    },
  );
};

export default simulatorRoutes;
