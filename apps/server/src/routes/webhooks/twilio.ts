import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import { z } from 'zod';
import { LIMITS } from '@loop/shared/constants';
import { createInboundBatcher } from '../../messaging/inbound-batcher';
import { recordStatus } from '../../messaging/record-status';
import { verifiedParams } from './verify-signature';

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * In the API description only (decision 0018): Twilio's form fields, signed by X-Twilio-Signature.
 * The body is checked by verifiedParams, over the fields exactly as they came (the signature covers
 * them), so the schema validates nothing: its validator lets every body through untouched.
 */
const twilioForm = (description: string): RouteShorthandOptions => ({
  schema: {
    description,
    consumes: ['application/x-www-form-urlencoded'],
    body: z.record(z.string(), z.string()).describe("Twilio's form parameters, signed in the X-Twilio-Signature header"),
  },
  validatorCompiler: () => () => true,
});
const MESSAGES = "An incoming text (Twilio's messaging webhook): stored once per MessageSid, answered with empty TwiML.";
const STATUS = "A sent text's delivery status (Twilio's status callback): 204.";

/**
 * Twilio's webhooks, under /api/webhooks/twilio. Form bodies are accepted here only (this plugin
 * is encapsulated): every other state-changing route stays JSON-only.
 */
const twilioWebhooks: FastifyPluginAsync = async (app) => {
  await app.register(formbody, { bodyLimit: LIMITS.webhookBytes });

  // Texts that arrive while earlier INSERTs run share the next one, and its commit.
  const inbound = createInboundBatcher(app.ctx.db, { maxInFlight: app.ctx.database.kind === 'pglite' ? 1 : 3 });
  app.addHook('onClose', () => inbound.drain());

  // Stored once per MessageSid and answered as soon as the row is committed; the message worker
  // does the rest. A text that could not be stored is a 5xx, so Twilio sends it again.
  // A webhook URL entered in the console with a trailing slash works too (Twilio signs the URL it
  // called, slash included, so the signature check is unchanged).
  const messagesHandler: RouteHandlerMethod = async (request, reply) => {
    const { config, clock } = app.ctx;
    const params = verifiedParams(request, config);
    await inbound.ingest(params, clock());
    return reply.type('text/xml').send(EMPTY_TWIML);
  };
  app.post('/messages', twilioForm(MESSAGES), messagesHandler);
  app.post('/messages/', twilioForm(MESSAGES), messagesHandler);

  const statusHandler: RouteHandlerMethod = async (request, reply) => {
    const { db, config, clock } = app.ctx;
    const params = verifiedParams(request, config);
    const sid = params.MessageSid ?? params.SmsSid;
    const status = params.MessageStatus ?? params.SmsStatus;
    if (sid && status) {
      await recordStatus(db, {
        providerMessageId: sid,
        status,
        errorCode: params.ErrorCode,
        now: clock(),
        maxAttempts: config.SEND_MAX_ATTEMPTS,
      });
    }
    return reply.code(204).send();
  };
  app.post('/status', twilioForm(STATUS), statusHandler);
  app.post('/status/', twilioForm(STATUS), statusHandler);
};

export default twilioWebhooks;
