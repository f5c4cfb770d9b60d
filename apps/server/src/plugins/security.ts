import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';

export interface AttemptLimiterOptions {
  /** Keeps the counts of different forms apart: "auth", "join"... */
  name: string;
  perIp: number;
  perAccount: number;
  windowMs: number;
  /** Which account a request tries: an email, a phone number, an invite code. */
  account: (request: FastifyRequest) => string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** A preHandler that limits attempts per client address and per account (429 with a message). */
    attemptLimiter: (options: AttemptLimiterOptions) => (request: FastifyRequest) => Promise<void>;
  }
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Security headers, rate limiting, and "JSON only" for state-changing API calls: a cross-site
 * HTML form can send form-encoded or text/plain bodies without a preflight, never JSON.
 */
export default fp(async (app) => {
  const https = app.ctx.config.secureCookies;
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Radix positions popovers with inline style attributes.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, { global: false });
  app.decorate('attemptLimiter', (options: AttemptLimiterOptions) => {
    const limiters = [
      app.createRateLimit({ max: options.perIp, timeWindow: options.windowMs, keyGenerator: (r) => `${options.name}:ip:${r.ip}` }),
      app.createRateLimit({
        max: options.perAccount,
        timeWindow: options.windowMs,
        keyGenerator: (r) => `${options.name}:account:${options.account(r)}`,
      }),
    ];
    return async (request: FastifyRequest) => {
      for (const limiter of limiters) {
        const result = await limiter(request);
        if (!result.isAllowed && result.isExceeded) {
          const minutes = Math.max(1, Math.ceil(result.ttl / 60_000));
          throw new AppError(
            'too_many_requests',
            `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`,
          );
        }
      }
    };
  });

  app.addHook('onRequest', async (request) => {
    if (!STATE_CHANGING.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.url.startsWith('/api/webhooks/')) return;
    const type = request.headers['content-type'];
    if (type === undefined) return;
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new AppError('unsupported_media_type', 'This endpoint accepts JSON only: send Content-Type: application/json.');
    }
  });
});
