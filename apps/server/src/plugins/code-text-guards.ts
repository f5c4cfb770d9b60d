import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../errors';
import { HOUR_MS } from '../lib/clock';
import { hashToken } from '../lib/tokens';
import { refuseUntextableNumber } from '../messaging/recipients';
import { codeTextsRefused } from '../metrics/process-metrics';
import { countAttempts } from '../services/attempts/count-attempts';
import { waitText } from '../services/attempts/enforce-limits';
import type { PhoneCodePurpose } from '../services/phone-codes/phone-code-policy';
import { verifyProofOfWork } from '../services/proof-of-work/verify-proof-of-work';
import { presentedCodeHolder, setCodeHolderCookie } from './session';

declare module 'fastify' {
  interface FastifyInstance {
    /** preValidation of the forms that text a code: the solved proof-of-work, when SIGNUP_PROOF_OF_WORK is on. */
    requireProofOfWork: (request: FastifyRequest) => Promise<void>;
    /** Counts one code text against CODE_TEXTS_PER_HOUR, shared by every process; over it, a 429, a log line and a metric. */
    reserveCodeText: (request: FastifyRequest) => Promise<void>;
    /**
     * The one handler of a form that texts a code (sign-up, reset, a new phone number): the typed
     * number is one Loop texts (messaging/recipients.ts) and the hour's code texts are not used up,
     * then `issue` issues the code to this browser's holder secret (decision 0027), which goes back
     * as its cookie; the answer is the same 202 whatever state the phone is in.
     */
    textCode: (
      request: FastifyRequest,
      reply: FastifyReply,
      purpose: PhoneCodePurpose,
      phoneNumber: string | null,
      issue: (holder: string | undefined) => Promise<{ holder: string; answer: unknown }>,
    ) => Promise<FastifyReply>;
  }
}

/**
 * What stands between a stranger and Loop's texting bill (decision 0030), beside the per-address
 * limits and the number rule (messaging/recipients.ts): a proof-of-work per form, and a cap on
 * code texts per hour for the whole service.
 */
export default fp(async (app) => {
  const { config, db, clock } = app.ctx;
  const globalKey = hashToken('code-texts:global', config.SESSION_SECRET);

  app.decorate('requireProofOfWork', async (request: FastifyRequest) => {
    if (!config.proofOfWork) return;
    const payload = (request.body as Record<string, unknown> | undefined)?.altcha;
    await verifyProofOfWork(db, { payload, secret: config.SESSION_SECRET, now: clock() });
  });

  // Every request that may text a code counts, whether or not a text goes out (a resend too soon,
  // an unknown account), so the 429 tells nothing about a phone or an account.
  app.decorate('reserveCodeText', async (request: FastifyRequest) => {
    const now = clock();
    const [count] = await countAttempts(db, [globalKey], now, HOUR_MS);
    if (!count || count.count <= config.CODE_TEXTS_PER_HOUR) return;
    codeTextsRefused.inc();
    const wait = waitText(count.windowEndsAt.getTime() - now.getTime());
    request.log.warn(
      { cap: config.CODE_TEXTS_PER_HOUR, until: count.windowEndsAt.toISOString() },
      `code texts: CODE_TEXTS_PER_HOUR (${config.CODE_TEXTS_PER_HOUR}) reached; sign-up and password codes refused until ${count.windowEndsAt.toISOString()}`,
    );
    throw new AppError(
      'too_many_requests',
      `Loop has sent as many sign-up and password codes as it may this hour. Please try again ${wait}.`,
    );
  });

  app.decorate(
    'textCode',
    async (
      request: FastifyRequest,
      reply: FastifyReply,
      purpose: PhoneCodePurpose,
      phoneNumber: string | null,
      issue: (holder: string | undefined) => Promise<{ holder: string; answer: unknown }>,
    ) => {
      if (phoneNumber) refuseUntextableNumber(config, phoneNumber);
      await app.reserveCodeText(request);
      const issued = await issue(presentedCodeHolder(request, purpose));
      setCodeHolderCookie(reply, purpose, issued.holder);
      return reply.code(202).send(issued.answer);
    },
  );
});
