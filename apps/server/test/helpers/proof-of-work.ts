import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import type { ProofOfWorkChallenge } from '@loop/shared/auth';

/**
 * Fetches GET /api/proof-of-work and solves it as the web app does (the same library, Node's
 * PBKDF2): the `altcha` field of a form that texts a code. Undefined when the server's check is off.
 */
export async function solveProofOfWork(get: (path: string) => Promise<ProofOfWorkChallenge>): Promise<string | undefined> {
  const { challenge } = await get('/api/proof-of-work');
  if (!challenge) return undefined;
  const solution = await solveChallenge({ challenge: challenge as unknown as Challenge, deriveKey });
  if (!solution) throw new Error('the proof-of-work was not solved in time');
  return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
}
