import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  loginSchema,
  type PendingSignUp,
  type ProofOfWorkChallenge,
  registerSchema,
  requestPasswordResetSchema,
  resendSignUpCodeSchema,
  resetPasswordSchema,
  verifySignUpSchema,
} from '@loop/shared/auth';
import { maskPhoneNumber } from '@loop/shared/phone';
import { addressKey } from '../../../lib/address-key';
import { tooManyAttempts } from '../../../plugins/security';
import { clearSessionCookie, presentedCodeHolder, setCodeHolderCookie, setSessionCookie } from '../../../plugins/session';
import { forgetSignInFailures, recordSignInFailure, signInKeys, signInStanding } from '../../../services/attempts/sign-in-failures';
import { createSession } from '../../../services/sessions/create-session';
import { deleteSession } from '../../../services/sessions/delete-session';
import { authenticateUser } from '../../../services/users/authenticate-user';
import { completeSignUp } from '../../../services/users/complete-sign-up';
import { guardedSignIn } from '../../../services/users/guarded-sign-in';
import { requestPasswordReset, resetPassword } from '../../../services/users/reset-password';
import { resendSignUpCode, startSignUp, type SignUpStep } from '../../../services/users/start-sign-up';
import { toPublicUser } from '../../../services/users/to-public-user';
import { AppError } from '../../../errors';
import { CODE_GONE } from '../../../services/phone-codes/check-phone-code';
import { clearSignUpPhoneCookie, pendingSignUp, setSignUpPhoneCookie, signUpPhone } from './pending-sign-up';

const WINDOW_MS = 15 * 60_000;

/**
 * POST /api/register (texts a code), /api/register/verify (the code: the account and a session),
 * /api/register/resend, GET /api/register/pending (the sign-up this browser started, so that its
 * code step survives a reload), /api/password-reset and /api/password-reset/confirm, /api/login,
 * /api/logout, /api/proof-of-work (the challenge the forms that text a code solve): public, no
 * gate (the signed-in account is `../user/`). The attempt limit counts every form sent, good or
 * bad: it runs before the input is checked (preValidation; decision 0018). A texted code works
 * only in the browser that asked for it: each code form sets a code-holder cookie, sent back only
 * to its own routes (decision 0027).
 */
const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config } = app.ctx;
  const secret = config.SESSION_SECRET;
  const simulator = config.messagingProvider === 'simulator';
  // Codes are limited per phone inside the services; here every form is limited per address.
  const limitAttempts = app.attemptLimiter({ name: 'auth', perIp: config.AUTH_RATE_LIMIT_PER_IP, windowMs: WINDOW_MS });
  // Forms that text a code: per address, then the proof-of-work (decision 0030).
  const textsCode = [limitAttempts, app.requireProofOfWork];
  const signInLimits = { perPair: config.AUTH_RATE_LIMIT_PER_ACCOUNT, perAccount: config.AUTH_FAILURES_PER_ACCOUNT, windowMs: WINDOW_MS };

  /** Ends the session this browser had (someone else's, perhaps) and starts one for this user. */
  async function startSession(request: FastifyRequest, reply: FastifyReply, userId: number) {
    const { db, clock } = app.ctx;
    if (request.sessionToken) await deleteSession(db, { token: request.sessionToken, secret });
    const session = await createSession(db, { userId, secret, now: clock() });
    setSessionCookie(reply, session.token, session.expiresAt);
  }

  const proofOfWorkSummary = 'A challenge to solve before a form texts a code (ALTCHA); null when the server asks for none';
  app.get('/proof-of-work', { schema: { summary: proofOfWorkSummary } }, async (): Promise<ProofOfWorkChallenge> => ({
    challenge: await app.proofOfWorkChallenge(),
  }));

  /** The phone a sign-up step is for: the form's, or the one this browser's sign-up was started for. */
  function signUpPhoneOf(request: FastifyRequest, typed: string | undefined): string {
    const phoneNumber = typed ?? signUpPhone(request, app.ctx.clock(), secret)?.phoneNumber;
    if (!phoneNumber) throw new AppError('bad_request', CODE_GONE);
    return phoneNumber;
  }

  /** Texts a sign-up code (or answers as if it had) and keeps the phone beside the browser's secret. */
  function signUpStep(
    request: FastifyRequest,
    reply: FastifyReply,
    phoneNumber: string,
    issue: (options: {
      now: Date;
      secret: string;
      simulator: boolean;
      holder: string | undefined;
      limits: typeof app.codeTextLimits;
    }) => Promise<SignUpStep>,
  ) {
    return app.textCode(request, reply, 'sign_up', phoneNumber, async (holder) => {
      const now = app.ctx.clock();
      const step = await issue({ now, secret, simulator, holder, limits: app.codeTextLimits });
      setSignUpPhoneCookie(reply, { holder: step.holder, phoneNumber, now, secret });
      return step;
    });
  }

  app.post('/register', { preValidation: textsCode, schema: { body: registerSchema } }, async (request, reply) =>
    signUpStep(request, reply, request.body.phoneNumber, (options) => startSignUp(app.ctx.db, request.body, options)),
  );

  app.post('/register/resend', { preValidation: textsCode, schema: { body: resendSignUpCodeSchema } }, async (request, reply) => {
    const phoneNumber = signUpPhoneOf(request, request.body.phoneNumber);
    return signUpStep(request, reply, phoneNumber, async (options) => {
      const step = await resendSignUpCode(app.ctx.db, { phoneNumber }, options);
      // A phone the request did not name is shown as GET /register/pending shows it.
      return request.body.phoneNumber ? step : { ...step, answer: { ...step.answer, phoneNumber: maskPhoneNumber(phoneNumber) } };
    });
  });

  const pendingSummary = 'The sign-up this browser started (its cookie), with the phone masked; null when none';
  app.get('/register/pending', { schema: { summary: pendingSummary } }, async (request): Promise<PendingSignUp> => {
    const now = app.ctx.clock();
    return pendingSignUp(signUpPhone(request, now, secret), now);
  });

  app.post('/register/verify', { preValidation: limitAttempts, schema: { body: verifySignUpSchema } }, async (request, reply) => {
    const holder = presentedCodeHolder(request, 'sign_up');
    const input = { code: request.body.code, phoneNumber: signUpPhoneOf(request, request.body.phoneNumber) };
    const { user } = await completeSignUp(app.ctx.db, input, {
      now: app.ctx.clock(),
      secret,
      staffPhones: config.staffPhones,
      holder,
    });
    await startSession(request, reply, user.id);
    // Signed in: a later visit to the sign-up page (after logging out) starts afresh.
    clearSignUpPhoneCookie(reply);
    return reply.code(201).send(await toPublicUser(app.ctx.db, user));
  });

  app.post('/password-reset', { preValidation: textsCode, schema: { body: requestPasswordResetSchema } }, async (request, reply) => {
    const { login } = request.body;
    return app.textCode(request, reply, 'reset_password', 'phoneNumber' in login ? (login.phoneNumber ?? null) : null, (holder) =>
      requestPasswordReset(app.ctx.db, login, { now: app.ctx.clock(), secret, simulator, holder, limits: app.codeTextLimits }),
    );
  });

  app.post('/password-reset/confirm', { preValidation: limitAttempts, schema: { body: resetPasswordSchema } }, async (request, reply) => {
    const holder = presentedCodeHolder(request, 'reset_password');
    const options = { now: app.ctx.clock(), secret, staffPhones: config.staffPhones, holder };
    const { userId } = await resetPassword(app.ctx.db, request.body, options);
    await startSession(request, reply, userId);
    return { ok: true };
  });

  app.post('/login', { preValidation: limitAttempts, schema: { body: loginSchema } }, async (request, reply) => {
    const input = request.body;
    const { db, clock } = app.ctx;
    const keys = signInKeys(input.email, addressKey(request.ip), secret);
    const standing = await signInStanding(db, keys, signInLimits, clock());
    if (standing.waitMs > 0) throw tooManyAttempts(standing.waitMs);
    let user;
    if (standing.guarded) {
      // Past the account's ceiling of failures: a code texted to the account's phone finishes it (decision 0028).
      const holder = presentedCodeHolder(request, 'sign_in');
      const options = { now: clock(), secret, simulator, holder, keys, limits: signInLimits };
      const guarded = await guardedSignIn(db, input, options);
      if (guarded.status === 'code_needed') {
        setCodeHolderCookie(reply, 'sign_in', guarded.holder);
        return reply.code(202).send(guarded.answer);
      }
      user = guarded.user;
    } else {
      user = await authenticateUser(db, input).catch(async (error: unknown) => {
        await recordSignInFailure(db, keys, signInLimits, clock());
        throw error;
      });
    }
    await forgetSignInFailures(db, keys);
    // A fresh token at every sign-in: a token planted before login is worthless after it.
    await startSession(request, reply, user.id);
    return toPublicUser(app.ctx.db, user);
  });

  app.post('/logout', async (request, reply) => {
    if (request.sessionToken) await deleteSession(app.ctx.db, { token: request.sessionToken, secret });
    clearSessionCookie(reply);
    return { ok: true };
  });
};

export default authRoutes;
