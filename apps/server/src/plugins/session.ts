import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { findSessionUser, type SessionUser } from '../services/sessions/find-session-user';
import { SESSION_COOKIE } from '../services/sessions/session-policy';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null. Read once per request from the session cookie. */
    user: SessionUser | null;
    sessionToken: string | null;
  }
}

/** Reads the session cookie into request.user for every API request. */
export default fp(async (app) => {
  await app.register(cookie);
  app.decorateRequest('user', null);
  app.decorateRequest('sessionToken', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/api/') && !request.url.startsWith('/media/') && !request.url.startsWith('/newsletters/')) return;
    const token = request.cookies[SESSION_COOKIE];
    if (!token || token.length > 200) return;
    const { db, config, clock } = app.ctx;
    request.user = await findSessionUser(db, { token, secret: config.SESSION_SECRET, now: clock() });
    request.sessionToken = request.user ? token : null;
  });
});

export function setSessionCookie(reply: FastifyReply, token: string, expiresAt: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.server.ctx.config.secureCookies,
    expires: expiresAt,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.server.ctx.config.secureCookies,
  });
}

/** The signed-in user, or a 401. */
export function requireUser(request: FastifyRequest): SessionUser {
  if (!request.user) throw new AppError('unauthorized', 'Please log in to continue.');
  return request.user;
}

/** A signed-in staff user, or 401 / 403. */
export function requireStaff(request: FastifyRequest): SessionUser {
  const user = requireUser(request);
  if (!user.isPrivileged) throw new AppError('forbidden', 'This page is for Loop staff only.');
  return user;
}
