import Fastify, { LogController, type FastifyError, type FastifyReply, type FastifyRequest, type RouteOptions } from 'fastify';
import { LIMITS } from '@loop/shared/constants';
import type { Config } from './config';
import { openDatabase, pingDatabase, type Database } from './db/client';
import { AppError, databaseUnavailable, validatorCompiler } from './errors';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Clock } from './lib/clock';
import { logSafeUrl } from './lib/log-safe-url';
import { createAppContext } from './create-context';
import codeTextGuards from './plugins/code-text-guards';
import gracefulClose from './plugins/graceful-close';
import metrics from './plugins/metrics';
import openapi, { OPENAPI_PATH } from './plugins/openapi';
import security from './plugins/security';
import session from './plugins/session';
import webApp from './plugins/web-app';
import adminRoutes from './routes/api/admin/index';
import authRoutes from './routes/api/auth/index';
import configRoutes from './routes/api/config/index';
import simulatorRoutes from './routes/api/simulator/index';
import userRoutes from './routes/api/user/index';
import mediaRoutes from './routes/media/index';
import twilioWebhooks from './routes/webhooks/twilio';
import twilioVoice from './routes/webhooks/twilio-voice';
import inviteRoutes from './routes/api/invites/index';
import invitationRoutes from './routes/api/invitations/index';
import loopRoutes from './routes/api/loops/index';
import emailLinkRoutes from './routes/email/index';
import newsletterPageRoutes from './routes/newsletters/index';

const DATABASE_DOWN = 'The database is not reachable right now. Please try again in a moment.';

export interface BuildOptions {
  /** An open database to use instead of the one the config names (tests). The app will not close it. */
  database?: Database;
  clock?: Clock;
  logger?: boolean;
  /** The built web app's folder (tests serve a stand-in). Default: apps/web/dist. */
  webDist?: string;
  /** Called for every route as it is registered (tests: every route is in the API description). */
  onRoute?: (route: RouteOptions) => void;
}

/** Builds the whole HTTP app. The server and every API test use it. */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({
    logger:
      options.logger === false || config.LOG_LEVEL === 'silent'
        ? false
        : {
            level: config.LOG_LEVEL,
            // Fastify's own fields, with the URL's tokens hidden (request logs: LOG_REQUESTS).
            serializers: {
              req: (request: FastifyRequest) => ({
                method: request.method,
                url: logSafeUrl(request.url),
                host: request.host,
                remoteAddress: request.ip,
              }),
            },
          },
    // A hop count as proxy-addr reads one: the socket's peer and the n-1 hops before it are proxies.
    trustProxy: typeof config.TRUST_PROXY === 'number' ? trustHops(config.TRUST_PROXY) : config.TRUST_PROXY,
    bodyLimit: LIMITS.requestBytes,
    // Slow clients cannot hold sockets: headers within 10 s, the whole request within 30 s (Node
    // checks every 2 s), idle keep-alive sockets closed after 5 s.
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    http: { headersTimeout: 10_000, connectionsCheckingInterval: 2_000 },
    // A handler that hangs (a database that stopped answering) answers 503 instead; the newsletter
    // model may take OPENAI_TIMEOUT_MS before the template writer stands in.
    handlerTimeout: config.OPENAI_TIMEOUT_MS + 30_000,
    // Our own 503 while closing (plugins/graceful-close.ts): the error shape is ours, `{ message }`.
    return503OnClosing: false,
    // Long ids cannot be numeric ids: keep routes from matching nonsense.
    routerOptions: { maxParamLength: 200 },
    // The router's own errors (a bad %-escape, an overlong path part) would otherwise answer in
    // Fastify's shape, echoing the whole path back; ours is short and readable.
    frameworkErrors: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
      // These answers skip every hook, the security headers' included.
      reply.server.securityHeaders(request.raw, reply.raw);
      // Fastify ignores what this returns: `return void` ends here without handing back the reply (a thenable).
      if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return void reply.code(414).send({ message: 'The address is too long.' });
      if (error.code === 'FST_ERR_BAD_URL')
        return void reply.code(400).send({ message: 'The address is not valid: it has a broken %-escape.' });
      return void reply.code(400).send({ message: 'The request is not valid.' });
    },
    // A line per request (LOG_REQUESTS): on in development, off in production unless asked for;
    // errors are logged either way.
    logController: new LogController({ disableRequestLogging: !config.logRequests }),
  });

  const database = options.database ?? (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  if (!options.database) app.addHook('onClose', () => database.close());

  // The provider, the media storage and the newsletter writer: built here, once, for everything the app runs.
  const ctx = createAppContext(config, database, { ...(options.clock ? { clock: options.clock } : {}), log: app.log });
  // The SMTP pool's idle connections go with the app (the worker has stopped before: server.ts).
  app.addHook('onClose', () => ctx.mailer.close());
  app.decorate('ctx', ctx);

  let databaseDownLoggedAt = 0;
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // An error thrown before the security plugin's own hook ran still gets its headers.
    app.securityHeaders(request.raw, reply.raw);
    if (error instanceof AppError) {
      return reply.code(error.status).send({ message: error.message, ...(error.errors ? { errors: error.errors } : {}) });
    }
    if (databaseUnavailable(error)) {
      // During an outage every request fails alike: one line every ten seconds says it.
      if (Date.now() - databaseDownLoggedAt > 10_000) {
        databaseDownLoggedAt = Date.now();
        request.log.warn({ err: error }, 'database unavailable: answering 503 (logged once every 10 s)');
      }
      return reply.code(503).send({ message: DATABASE_DOWN });
    }
    if (error.code === 'FST_ERR_HANDLER_TIMEOUT') {
      request.log.error({ err: error }, 'request timed out');
      return reply.code(503).send({ message: 'This took too long on our side. Please try again in a moment.' });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.code(status).send({ message: readableClientError(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });

  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Route schemas are the shared zod schemas, checked by parseInput: a bad input is the AppError 400.
  app.setValidatorCompiler(validatorCompiler);
  // A route's response schema (GET /api/loops/{id}: its updates and clips) is checked as it is sent.
  app.setSerializerCompiler(serializerCompiler);
  // Before any route, so that the API description lists every one (it adds no request hook).
  await app.register(openapi);
  // First of the request hooks, so that a closing server refuses a request before anything else runs.
  await app.register(gracefulClose);
  await app.register(security);
  // Early, so its latency hook sees every route.
  await app.register(metrics);
  await app.register(session);
  await app.register(codeTextGuards);
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(userRoutes, { prefix: '/api/user' });
  await app.register(configRoutes, { prefix: '/api/config' });
  await app.register(simulatorRoutes, { prefix: '/api/simulator' });
  await app.register(twilioWebhooks, { prefix: '/api/webhooks/twilio' });
  await app.register(twilioVoice, { prefix: '/api/webhooks/twilio/voice' });
  await app.register(mediaRoutes);
  await app.register(loopRoutes, { prefix: '/api/loops' });
  await app.register(inviteRoutes, { prefix: '/api/invites' });
  await app.register(invitationRoutes, { prefix: '/api/invitations' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  app.get('/api/health', async (_request, reply) => {
    const ok = await pingDatabase(ctx.db);
    return reply.code(ok ? 200 : 503).send({ ok, database: database.kind, ...(ok ? {} : { message: DATABASE_DOWN }) });
  });
  app.get(OPENAPI_PATH, { schema: { summary: 'This description of the API (OpenAPI 3.1)' } }, async () => app.swagger());
  // Before the web app: its not-found handler would answer /newsletters/* with the SPA.
  await app.register(newsletterPageRoutes);
  await app.register(emailLinkRoutes);
  await app.register(webApp, options.webDist ? { dist: options.webDist } : {});
  return app;
}

function trustHops(count: number) {
  return (_address: string, hop: number) => hop < count;
}

function readableClientError(error: FastifyError): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'This endpoint accepts JSON only: send Content-Type: application/json.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request is too large.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is empty: send a JSON object.';
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return 'The request body is not valid JSON.';
    default:
      if (error instanceof SyntaxError) return 'The request body is not valid JSON.';
      return error.message || 'The request is not valid.';
  }
}
