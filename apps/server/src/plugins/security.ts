import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '@loop/shared/constants';
import { AppError } from '../errors';
import { addressKey } from '../lib/address-key';
import { jsonTooDeep } from '../lib/json-depth';
import { hashToken } from '../lib/tokens';
import { countAttempts } from '../services/attempts/count-attempts';
import { securityHeaders } from './security-headers';

export interface AttemptLimiterOptions {
  /** Keeps the counts of different forms apart: "auth", "join"... */
  name: string;
  perIp: number;
  windowMs: number;
  /** Which account a request tries (an email, a phone number, an invite code); without it, addresses only. */
  account?: (request: FastifyRequest) => string;
  perAccount?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * This route also takes `multipart/form-data` (files), when the request carries this header:
     * a page of another site cannot add a header without a preflight, which Loop never allows.
     */
    multipartHeader?: string;
  }
  interface FastifyInstance {
    /** A preHandler that limits attempts per client address and per account (429 with a message). */
    attemptLimiter: (options: AttemptLimiterOptions) => (request: FastifyRequest) => Promise<void>;
    /** Sets the security headers on an answer that did not go through the hooks (errors). */
    securityHeaders: (request: IncomingMessage, response: ServerResponse) => void;
  }
}

/** The one 429 of attempt limits: says how long to wait. */
export function tooManyAttempts(waitMs: number): AppError {
  const minutes = Math.max(1, Math.ceil(waitMs / 60_000));
  return new AppError('too_many_requests', `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
}

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Security headers, rate limiting, and "JSON only" for state-changing API calls: a cross-site
 * HTML form can send form-encoded or text/plain bodies without a preflight, never JSON.
 */
export default fp(async (app) => {
  const setHeaders = securityHeaders({ https: app.ctx.config.secureCookies });
  app.decorate('securityHeaders', setHeaders);
  app.addHook('onRequest', async (request, reply) => setHeaders(request.raw, reply.raw));
  app.decorate('attemptLimiter', (options: AttemptLimiterOptions) => {
    const { db, clock, config } = app.ctx;
    // Keyed hashes: the counts table names no address, email or phone.
    const key = (kind: string, value: string) => hashToken(`${options.name}:${kind}:${value}`, config.SESSION_SECRET);
    return async (request: FastifyRequest) => {
      const keys = [key('ip', addressKey(request.ip)), ...(options.account ? [key('account', options.account(request))] : [])];
      const [byIp, byAccount] = await countAttempts(db, keys, clock(), options.windowMs);
      const over = [
        byIp && byIp.count > options.perIp ? byIp : undefined,
        byAccount && byAccount.count > (options.perAccount ?? Infinity) ? byAccount : undefined,
      ].filter((count) => count !== undefined);
      if (over.length === 0) return;
      const until = Math.max(...over.map((count) => count.windowEndsAt.getTime()));
      throw tooManyAttempts(until - clock().getTime());
    };
  });

  // JSON bodies: Fastify's own parser (prototype poisoning refused), after a scan that refuses
  // deep nesting first. A mebibyte of "[" takes a large part of a second to parse and would
  // stall every other request; the scan answers it in a millisecond (decision 0032).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (jsonTooDeep(body as string, LIMITS.jsonDepth)) {
      done(new AppError('bad_request', `The request body is nested too deeply: at most ${LIMITS.jsonDepth} levels of arrays and objects.`));
      return;
    }
    parseJson(request, body as string, done);
  });

  app.addHook('onRequest', async (request) => {
    // The matched route, not the raw URL: the router decodes "/%61pi/login" to /api/login.
    const route = request.routeOptions.url ?? request.url;
    if (!STATE_CHANGING.has(request.method) || !route.startsWith('/api/')) return;
    if (route.startsWith('/api/webhooks/')) return;
    // A body-less POST needs no Content-Type, so the JSON rule alone does not stop one sent from
    // another site (a no-cors fetch, a beacon). Browsers say where a request comes from; only our
    // own pages (same-origin) may change anything. SameSite=Lax does not cover a sibling subdomain.
    const site = request.headers['sec-fetch-site'];
    if (site === 'cross-site' || site === 'same-site') {
      throw new AppError('forbidden', 'Requests from another site are refused: use Loop itself to make this change.');
    }
    const type = request.headers['content-type'];
    if (type === undefined) return;
    const filesWith = request.routeOptions.config.multipartHeader;
    if (filesWith && /^multipart\/form-data\s*;/i.test(type)) {
      if (request.headers[filesWith] === '1') return;
      throw new AppError(
        'unsupported_media_type',
        `This endpoint takes files as multipart/form-data with the header ${filesWith}: 1, or JSON.`,
      );
    }
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      throw new AppError('unsupported_media_type', 'This endpoint accepts JSON only: send Content-Type: application/json.');
    }
  });
});
