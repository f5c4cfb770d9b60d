import Fastify, { LogController, type FastifyError } from 'fastify';
import type { Config } from './config';
import { openDatabase, pingDatabase, type Database } from './db/client';
import { AppError } from './errors';
import { systemClock, type Clock } from './lib/clock';
import type { AppContext } from './plugins/context';
import security from './plugins/security';
import session from './plugins/session';
import webApp from './plugins/web-app';
import adminRoutes from './routes/api/admin/index';
import authRoutes from './routes/api/auth/index';
import simulatorRoutes from './routes/api/simulator/index';
import mediaRoutes from './routes/media/index';
import twilioWebhooks from './routes/webhooks/twilio';
import inviteRoutes from './routes/api/invites/index';
import loopRoutes from './routes/api/loops/index';
import newsletterRoutes from './routes/api/newsletters/index';
import newsletterPageRoutes from './routes/newsletters/index';

export interface BuildOptions {
  /** An open database to use instead of the one the config names (tests). The app will not close it. */
  database?: Database;
  clock?: Clock;
  logger?: boolean;
}

/** Builds the whole HTTP app. The server and every API test use it. */
export async function buildApp(config: Config, options: BuildOptions = {}) {
  const app = Fastify({
    logger: options.logger === false || config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    requestTimeout: 30_000,
    keepAliveTimeout: 5_000,
    // Long ids cannot be numeric ids: keep routes from matching nonsense.
    routerOptions: { maxParamLength: 200 },
    // One line per request is noise for a product; errors are still logged.
    logController: new LogController({ disableRequestLogging: config.NODE_ENV === 'production' }),
  });

  const database =
    options.database ??
    (await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir }));
  if (!options.database) app.addHook('onClose', () => database.close());

  const ctx: AppContext = { config, database, db: database.db, clock: options.clock ?? systemClock };
  app.decorate('ctx', ctx);

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).send({ message: error.message, ...(error.errors ? { errors: error.errors } : {}) });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.code(status).send({ message: readableClientError(error) });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ message: 'Something went wrong on our side. Please try again.' });
  });

  await app.register(security);
  await app.register(session);
  await app.register(authRoutes, { prefix: '/api' });
  await app.register(simulatorRoutes, { prefix: '/api' });
  await app.register(twilioWebhooks, { prefix: '/api/webhooks/twilio' });
  await app.register(mediaRoutes);
  await app.register(loopRoutes, { prefix: '/api/loops' });
  await app.register(inviteRoutes, { prefix: '/api/invites' });
  await app.register(newsletterRoutes, { prefix: '/api/loops' });
  await app.register(adminRoutes, { prefix: '/api/admin' });
  app.get('/api/health', async (_request, reply) => {
    const ok = await pingDatabase(ctx.db);
    return reply.code(ok ? 200 : 503).send({ ok, database: database.kind });
  });
  // Before the web app: its not-found handler would answer /newsletters/* with the SPA.
  await app.register(newsletterPageRoutes);
  await app.register(webApp);
  return app;
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
