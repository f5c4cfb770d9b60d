import { verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge, Solution } from 'altcha-lib/types';
import type { DbOrTx } from '../../db/client';
import { AppError } from '../../errors';
import { hashToken } from '../../lib/tokens';
import { countAttempts } from '../attempts/count-attempts';
import { PROOF_OF_WORK, proofOfWorkSecrets } from './proof-of-work-policy';

const MISSING = 'The automatic check against spam is missing or did not finish. Reload the page and send the form again.';
const EXPIRED = 'The automatic check against spam has expired. Send the form again.';
const USED = 'This automatic check against spam was already used. Send the form again.';
const HARDER = 'Loop asks for a stronger automatic check against spam for a while. Send the form again: it takes a few seconds.';

/**
 * Checks the `altcha` field of a form: a solved, unexpired challenge this server signed, not used
 * before, and of the harder kind when `hard` (decision 0051). Throws a 400 that says what to do otherwise.
 */
export async function verifyProofOfWork(db: DbOrTx, input: { payload: unknown; secret: string; now: Date; hard: boolean }): Promise<void> {
  const proof = decode(input.payload);
  if (!proof) throw new AppError('bad_request', MISSING);
  const result = await verifySolution({ ...proof, deriveKey, ...proofOfWorkSecrets(input.secret) }).catch(() => undefined);
  if (!result?.verified) throw new AppError('bad_request', MISSING);
  const expires = proof.challenge.parameters.data?.expires;
  if (typeof expires !== 'number' || expires <= input.now.getTime()) throw new AppError('bad_request', EXPIRED);
  if (input.hard && !(Number(proof.challenge.parameters.cost) >= PROOF_OF_WORK.hardCost)) throw new AppError('bad_request', HARDER);
  const key = hashToken(`proof-of-work:used:${proof.challenge.signature}`, input.secret);
  const [uses] = await countAttempts(db, [key], input.now, PROOF_OF_WORK.validMs);
  if (!uses || uses.count > 1) throw new AppError('bad_request', USED);
}

/** base64 of `{ challenge, solution }`, as the web app sends it; undefined when it is not that. */
function decode(payload: unknown): { challenge: Challenge; solution: Solution } | undefined {
  if (typeof payload !== 'string' || payload === '') return undefined;
  try {
    const value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8')) as { challenge?: Challenge; solution?: Solution };
    const { challenge, solution } = value;
    if (typeof challenge?.signature !== 'string' || typeof challenge.parameters !== 'object' || typeof solution !== 'object')
      return undefined;
    if (challenge.parameters.algorithm !== PROOF_OF_WORK.algorithm) return undefined;
    return { challenge, solution };
  } catch {
    return undefined;
  }
}
