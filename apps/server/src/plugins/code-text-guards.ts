import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ProofOfWorkChallenge } from '@loop/shared/auth';
import { MINUTE_MS } from '../lib/clock';
import { refuseUntextableNumber } from '../messaging/recipients';
import { codeTextsRefused } from '../metrics/process-metrics';
import { codeTextLimits, CodesHeldError, codeTextsUnderAttack, type CodeTextLimits } from '../services/phone-codes/code-text-budget';
import type { PhoneCodePurpose } from '../services/phone-codes/phone-code-policy';
import { createProofOfWorkChallenge } from '../services/proof-of-work/create-proof-of-work-challenge';
import { verifyProofOfWork } from '../services/proof-of-work/verify-proof-of-work';
import { presentedCodeHolder, setCodeHolderCookie } from './session';

declare module 'fastify' {
  interface FastifyInstance {
    /** preValidation of the forms that text a code: the solved proof-of-work, when SIGNUP_PROOF_OF_WORK is on. */
    requireProofOfWork: (request: FastifyRequest) => Promise<void>;
    /** The challenge GET /api/proof-of-work hands out: the harder one while codes nobody types in pile up (decision 0051). */
    proofOfWorkChallenge: () => Promise<ProofOfWorkChallenge['challenge']>;
    /** The caps on code texts nobody typed in, from the configuration (decision 0051). */
    codeTextLimits: CodeTextLimits;
    /**
     * The one handler of a form that texts a code (sign-up, reset, a new phone number): the typed
     * number is one Loop texts (messaging/recipients.ts), then `issue` issues the code to this
     * browser's holder secret (decision 0027), which goes back as its cookie; the answer is the
     * same 202 whatever state the phone is in. A code held back for its prefix or country (decision
     * 0051) is a 429 that says so, a log line and a metric.
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
 * What stands between a stranger and Loop's texting bill (decisions 0030 and 0051), beside the
 * per-address limits and the number rule (messaging/recipients.ts): a proof-of-work per form,
 * harder while codes nobody types in pile up, and caps per number prefix and country abroad on
 * such codes (services/phone-codes/code-text-budget.ts). No cap refuses everyone.
 */
export default fp(async (app) => {
  const { config, db, clock } = app.ctx;
  const limits = codeTextLimits(config);
  let warnedAt = -Infinity;

  /** Under attack: logged once a minute per process, while it lasts. */
  const hardened = async (log: FastifyBaseLogger) => {
    const now = clock();
    const hard = await codeTextsUnderAttack(db, now, limits);
    if (hard && now.getTime() - warnedAt > MINUTE_MS) {
      warnedAt = now.getTime();
      log.warn(
        { cap: limits.perHour },
        `code texts: CODE_TEXTS_PER_HOUR (${limits.perHour}) codes nobody typed in within the hour; forms that text a code ask for the harder proof-of-work`,
      );
    }
    return hard;
  };

  app.decorate('codeTextLimits', limits);

  app.decorate('proofOfWorkChallenge', async () => {
    if (!config.proofOfWork) return null;
    return createProofOfWorkChallenge(config.SESSION_SECRET, clock(), await hardened(app.log));
  });

  app.decorate('requireProofOfWork', async (request: FastifyRequest) => {
    if (!config.proofOfWork) return;
    const payload = (request.body as Record<string, unknown> | undefined)?.altcha;
    const hard = await hardened(request.log);
    await verifyProofOfWork(db, { payload, secret: config.SESSION_SECRET, now: clock(), hard });
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
      const issued = await issue(presentedCodeHolder(request, purpose)).catch((error: unknown) => {
        if (error instanceof CodesHeldError) {
          codeTextsRefused.inc();
          request.log.warn({ scope: error.scope }, `code texts: a code held back, too many unused codes to its ${error.scope}`);
        }
        throw error;
      });
      setCodeHolderCookie(reply, purpose, issued.holder);
      return reply.code(202).send(issued.answer);
    },
  );
});
