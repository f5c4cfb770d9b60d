import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { loginSchema, registerSchema, updateUserSchema } from '@loop/shared/auth';
import { parseInput } from '../../../errors';
import { clearSessionCookie, requireUser, setSessionCookie } from '../../../plugins/session';
import { createSession } from '../../../services/sessions/create-session';
import { deleteSession } from '../../../services/sessions/delete-session';
import { authenticateUser } from '../../../services/users/authenticate-user';
import { registerUser } from '../../../services/users/register-user';
import { toPublicUser } from '../../../services/users/to-public-user';
import { updateUser } from '../../../services/users/update-user';

const WINDOW_MS = 15 * 60_000;

function bodyField(request: FastifyRequest, field: string): string {
  const value = (request.body as Record<string, unknown> | undefined)?.[field];
  return typeof value === 'string' ? value.trim().toLowerCase() : '';
}

/** POST /api/register, /api/login, /api/logout; GET and PUT /api/user. */
const authRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.ctx;
  const limitAttempts = app.attemptLimiter({
    name: 'auth',
    perIp: config.AUTH_RATE_LIMIT_PER_IP,
    perAccount: config.AUTH_RATE_LIMIT_PER_ACCOUNT,
    windowMs: WINDOW_MS,
    account: (request) => bodyField(request, 'email') || bodyField(request, 'phoneNumber'),
  });

  app.post('/register', { preHandler: limitAttempts }, async (request, reply) => {
    const input = parseInput(registerSchema, request.body);
    const { db, clock } = app.ctx;
    const user = await registerUser(db, input, { adminEmails: config.ADMIN_EMAILS, now: clock() });
    // Like sign-in: the session this browser had before (someone else's, perhaps) ends here.
    if (request.sessionToken) await deleteSession(db, { token: request.sessionToken, secret: config.SESSION_SECRET });
    const session = await createSession(db, { userId: user.id, secret: config.SESSION_SECRET, now: clock() });
    setSessionCookie(reply, session.token, session.expiresAt);
    return reply.code(201).send(toPublicUser(user));
  });

  app.post('/login', { preHandler: limitAttempts }, async (request, reply) => {
    const input = parseInput(loginSchema, request.body);
    const { db, clock } = app.ctx;
    const user = await authenticateUser(db, input, { adminEmails: config.ADMIN_EMAILS });
    // A fresh token at every sign-in: a token planted before login is worthless after it.
    if (request.sessionToken) await deleteSession(db, { token: request.sessionToken, secret: config.SESSION_SECRET });
    const session = await createSession(db, { userId: user.id, secret: config.SESSION_SECRET, now: clock() });
    setSessionCookie(reply, session.token, session.expiresAt);
    return toPublicUser(user);
  });

  app.post('/logout', async (request, reply) => {
    if (request.sessionToken) {
      await deleteSession(app.ctx.db, { token: request.sessionToken, secret: config.SESSION_SECRET });
    }
    clearSessionCookie(reply);
    return { ok: true };
  });

  app.get('/user', async (request) => toPublicUser(requireUser(request)));

  app.put('/user', async (request) => {
    const user = requireUser(request);
    const input = parseInput(updateUserSchema, request.body);
    return toPublicUser(await updateUser(app.ctx.db, user.id, input));
  });
};

export default authRoutes;
