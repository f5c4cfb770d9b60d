import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorCodes, type FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '@loop/shared/constants';
import { AppError } from '../errors';
import { addressKey } from '../lib/address-key';
import { jsonDepthScanner } from '../lib/json-depth';
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

const TOO_DEEP = `The request body is nested too deeply: at most ${LIMITS.jsonDepth} levels of arrays and objects.`;

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Security headers, rate limiting, and "JSON only" for state-changing API calls: a cross-site
 * HTML form can send form-encoded or text/plain bodies without a preflight, never JSON.
 */
export default fp(async (app) => {
  const setHeaders = securityHeaders({ https: app.ctx.config.secureCookies, publicUrl: app.ctx.config.PUBLIC_URL });
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

  // JSON bodies: read as they arrive, each piece scanned for nesting, and refused at the first
  // piece too deep, without reading the rest; then Fastify's own parser (prototype poisoning
  // refused). A mebibyte of "[" took a large part of a second to parse and stalled every other
  // request; it is now refused after its first few dozen bytes (decision 0032).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request, payload, done) => {
    const limit = request.routeOptions.bodyLimit ?? LIMITS.requestBytes;
    const declared = Number(request.headers['content-length']);
    if (declared > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
    const tooDeep = jsonDepthScanner(LIMITS.jsonDepth);
    const pieces: Buffer[] = [];
    let received = 0;
    let finished = false;
    const finish = (error: Error | null, value?: unknown) => {
      if (finished) return;
      finished = true;
      payload.removeListener('data', onData);
      // What is left of a refused body is read and dropped as bytes: never decoded, kept or scanned.
      if (error) payload.resume();
      done(error, value);
    };
    const onData = (piece: Buffer) => {
      received += piece.length;
      if (received > limit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      if (tooDeep(piece)) return finish(new AppError('bad_request', TOO_DEEP));
      pieces.push(piece);
    };
    payload.on('data', onData);
    payload.once('error', (error) => finish(error));
    payload.once('end', () => {
      if (Number.isFinite(declared) && received !== declared) return finish(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      // Fastify's JSON parser is the callback kind: it returns nothing and reports to `finish`, errors
      // included (its type also admits a Promise-returning parser, hence `void`).
      void parseJson(request, Buffer.concat(pieces, received).toString('utf8'), finish);
    });
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
