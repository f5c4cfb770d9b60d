import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { CODE_HOLDER_COOKIE, PHONE_CODE, type PhoneCodePurpose } from '../services/phone-codes/phone-code-policy';
import { findSessionUser, type SessionUser } from '../services/sessions/find-session-user';
import { SESSION_COOKIE } from '../services/sessions/session-policy';
import { SIGNED_IN_HINT_COOKIE } from '@loop/shared/auth';

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
  setSignedInHint(reply, expiresAt);
}

/** The web app's readable hint that a session cookie exists (no secret in it): see SIGNED_IN_HINT_COOKIE. */
export function setSignedInHint(reply: FastifyReply, expiresAt?: Date): void {
  reply.setCookie(SIGNED_IN_HINT_COOKIE, '1', {
    path: '/',
    sameSite: 'lax',
    secure: reply.server.ctx.config.secureCookies,
    ...(expiresAt ? { expires: expiresAt } : {}),
  });
}

export function clearSignedInHint(reply: FastifyReply): void {
  reply.clearCookie(SIGNED_IN_HINT_COOKIE, { path: '/', sameSite: 'lax', secure: reply.server.ctx.config.secureCookies });
}

/** The code-holder secret this request presented for a purpose's codes, as it came. */
export function presentedCodeHolder(request: FastifyRequest, purpose: PhoneCodePurpose): string | undefined {
  return request.cookies[CODE_HOLDER_COOKIE[purpose].name];
}

/** Sets the secret that binds a texted code to this browser (decision 0027), for as long as a code lives. */
export function setCodeHolderCookie(reply: FastifyReply, purpose: PhoneCodePurpose, holder: string): void {
  const { name, path } = CODE_HOLDER_COOKIE[purpose];
  reply.setCookie(name, holder, {
    path,
    httpOnly: true,
    sameSite: 'strict',
    secure: reply.server.ctx.config.secureCookies,
    maxAge: PHONE_CODE.validMs / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: reply.server.ctx.config.secureCookies,
  });
  clearSignedInHint(reply);
}

/**
 * Who may pass a route folder's gate, once signed in: `true`, or the message of the 403.
 * Signed out is always a 401.
 */
export type GateRule = (user: SessionUser) => true | string;

/** Any signed-in user. */
export const signedIn: GateRule = () => true;

/** Staff (`isStaff`; `isPrivileged` on the wire) only. */
export const staffOnly: GateRule = (user) => user.isStaff || 'This page is for Loop staff only.';

/** The user each request's gate let in. */
const letIn = new WeakMap<FastifyRequest, SessionUser>();

/**
 * A route folder's one gate (docs/architecture.md#authorization), the first line of its plugin:
 * every route of the folder, and of the folders it registers, answers 401 signed out and 403 when
 * `rule` says no. It runs in `onRequest`, before the body is read, the input checked (400) or a
 * Loop looked up (404). Handlers read the user it let in with `gatedUser`.
 */
export function gate(app: FastifyInstance, rule: GateRule): void {
  app.addHook('onRequest', async (request) => {
    const user = request.user;
    if (!user) throw new AppError('unauthorized', 'Please log in to continue.');
    const verdict = rule(user);
    if (verdict !== true) throw new AppError('forbidden', verdict);
    letIn.set(request, user);
  });
}

/**
 * The signed-in user the folder's gate let in. A route whose folder declares no gate has none: a
 * mistake in the code, so a 500, never an answer about who is signed in.
 */
export function gatedUser(request: FastifyRequest): SessionUser {
  const user = letIn.get(request);
  if (!user)
    throw new Error(`${request.method} ${request.routeOptions.url ?? request.url} reads gatedUser, but its folder declares no gate`);
  return user;
}
