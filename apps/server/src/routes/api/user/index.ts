import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { changePasswordSchema, changePhoneSchema, setPhonePinSchema, updateUserSchema, verifyPhoneChangeSchema } from '@loop/shared/auth';
import { addressKey } from '../../../lib/address-key';
import { gate, gatedUser, presentedCodeHolder, signedIn } from '../../../plugins/session';
import { signInKeys } from '../../../services/attempts/sign-in-failures';
import { setPhonePin } from '../../../services/calls/phone-pin';
import { changePassword, checkCurrentPassword } from '../../../services/users/change-password';
import { completePhoneChange } from '../../../services/users/complete-phone-change';
import { startPhoneChange } from '../../../services/users/start-phone-change';
import { toPublicUser } from '../../../services/users/to-public-user';
import { updateUser } from '../../../services/users/update-user';
import accountDataRoutes from './account-data';

const WINDOW_MS = 15 * 60_000;

/**
 * GET and PUT /api/user: the signed-in person's own account; POST /api/user/password (the
 * current password, then the new one; other sessions end) and POST /api/user/phone (the current
 * password and a new number) then /api/user/phone/verify (its texted code in this browser; the
 * old number is told, other sessions end; decisions 0044 and 0052). Signed out is a 401 before the input is looked at. Every change is limited per address
 * and per account; a wrong current password counts as a failed sign-in. DELETE /api/user and
 * /api/user/export*: delete my account, download my data (account-data.ts, decision 0045).
 */
const userRoutes: FastifyPluginAsyncZod = async (app) => {
  gate(app, signedIn);
  const { config } = app.ctx;
  const secret = config.SESSION_SECRET;
  const limitAttempts = app.attemptLimiter({
    name: 'account',
    perIp: config.AUTH_RATE_LIMIT_PER_IP,
    perAccount: config.AUTH_RATE_LIMIT_PER_IP,
    account: (request) => String(gatedUser(request).id),
    windowMs: WINDOW_MS,
  });
  const signInLimits = { perPair: config.AUTH_RATE_LIMIT_PER_ACCOUNT, perAccount: config.AUTH_FAILURES_PER_ACCOUNT, windowMs: WINDOW_MS };

  app.get('/', { prefixTrailingSlash: 'no-slash' }, async (request) => toPublicUser(app.ctx.db, gatedUser(request)));

  app.put('/', { prefixTrailingSlash: 'no-slash', preValidation: limitAttempts, schema: { body: updateUserSchema } }, async (request) =>
    toPublicUser(app.ctx.db, await updateUser(app.ctx.db, gatedUser(request).id, request.body, app.ctx.clock(), config)),
  );

  // The phone line's PIN (decision 0067): the password in use first, so a session alone cannot set
  // the PIN a call with a borrowed caller ID would need. A new PIN also lifts the phone's lockout.
  app.put(
    '/phone-pin',
    { preValidation: limitAttempts, schema: { summary: 'Set the 4-digit PIN a call from my phone asks for', body: setPhonePinSchema } },
    async (request, reply) => {
      const user = gatedUser(request);
      const keys = signInKeys(user.email ?? `user:${user.id}`, addressKey(request.ip), secret);
      const guarded = 'This account had many failed log-ins: set your phone PIN by texting PIN and four digits to Loop for now.';
      await checkCurrentPassword(app.ctx.db, user, request.body.currentPassword, {
        now: app.ctx.clock(),
        keys,
        limits: signInLimits,
        guarded,
      });
      await setPhonePin(app.ctx.db, { secret, userId: user.id, pin: request.body.pin });
      return reply.code(204).send();
    },
  );

  app.post(
    '/password',
    { preValidation: limitAttempts, schema: { summary: 'Change the password; every other session ends', body: changePasswordSchema } },
    async (request) => {
      const user = gatedUser(request);
      // The same counts as the log-in form's for this account and address (decision 0013).
      const keys = signInKeys(user.email ?? `user:${user.id}`, addressKey(request.ip), secret);
      const options = { now: app.ctx.clock(), secret, sessionToken: request.sessionToken, keys, limits: signInLimits };
      await changePassword(app.ctx.db, user, request.body, options);
      return { ok: true };
    },
  );

  app.post(
    '/phone',
    {
      preValidation: [limitAttempts, app.requireProofOfWork],
      schema: { summary: 'The password, then a code texted to a new phone number for this account', body: changePhoneSchema },
    },
    async (request, reply) => {
      const user = gatedUser(request);
      // The same counts as the log-in form's for this account and address (decision 0013).
      const keys = signInKeys(user.email ?? `user:${user.id}`, addressKey(request.ip), secret);
      return app.textCode(request, reply, 'change_phone', request.body.phoneNumber, (holder) =>
        startPhoneChange(app.ctx.db, user, request.body, {
          now: app.ctx.clock(),
          secret,
          simulator: config.messagingProvider === 'simulator',
          holder,
          limits: app.codeTextLimits,
          password: { keys, limits: signInLimits },
        }),
      );
    },
  );

  app.post(
    '/phone/verify',
    {
      preValidation: limitAttempts,
      schema: {
        summary: 'The code texted to the new number: the account takes the number, the old one is told, other sessions end',
        body: verifyPhoneChangeSchema,
      },
    },
    async (request) => {
      const options = {
        now: app.ctx.clock(),
        secret,
        staffPhones: config.staffPhones,
        holder: presentedCodeHolder(request, 'change_phone'),
        sessionToken: request.sessionToken,
      };
      return toPublicUser(app.ctx.db, await completePhoneChange(app.ctx.db, gatedUser(request), request.body, options));
    },
  );

  // Download my data, delete my account (decision 0045).
  await app.register(accountDataRoutes);
};

export default userRoutes;
