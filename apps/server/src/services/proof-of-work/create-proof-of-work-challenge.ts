import { createChallenge, randomInt } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { ProofOfWorkChallenge } from '@loop/shared/auth';
import { PROOF_OF_WORK, proofOfWorkSecrets } from './proof-of-work-policy';

/** A new signed challenge for GET /api/proof-of-work (decision 0030); `hard`: the harder one of decision 0051. */
export async function createProofOfWorkChallenge(
  secret: string,
  now: Date,
  hard = false,
): Promise<NonNullable<ProofOfWorkChallenge['challenge']>> {
  const challenge = await createChallenge({
    algorithm: PROOF_OF_WORK.algorithm,
    cost: hard ? PROOF_OF_WORK.hardCost : PROOF_OF_WORK.cost,
    counter: randomInt(PROOF_OF_WORK.counterMax, PROOF_OF_WORK.counterMin),
    deriveKey,
    // Our own expiry, read with the app's clock (the library's reads Date.now()).
    data: { expires: now.getTime() + PROOF_OF_WORK.validMs },
    ...proofOfWorkSecrets(secret),
  });
  return challenge as unknown as NonNullable<ProofOfWorkChallenge['challenge']>;
}
