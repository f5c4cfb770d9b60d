import { MINUTE_MS } from '../../lib/clock';
import { hashToken } from '../../lib/tokens';

/**
 * The proof-of-work asked before a code is texted (ALTCHA, decision 0030): the browser derives
 * PBKDF2 keys until it finds the counter the server chose, about 2,500 tries of 1,000 iterations
 * (under a second in a browser; each form sent costs a script as much). The server keeps nothing:
 * the challenge is signed, and the key of the answer is signed too, so checking costs two HMACs.
 * A challenge is good for `validMs` and for one form: its signature is counted in attempt_counts.
 */
export const PROOF_OF_WORK = {
  algorithm: 'PBKDF2/SHA-256',
  cost: 1_000,
  /**
   * While codes nobody types in pile up (decision 0051): five times the work per try, about five
   * seconds in a browser, instead of refusing anyone.
   */
  hardCost: 5_000,
  counterMin: 1_000,
  counterMax: 4_000,
  validMs: 20 * MINUTE_MS,
} as const;

/** The HMAC keys that sign challenges and their answers, derived from SESSION_SECRET. */
export function proofOfWorkSecrets(secret: string) {
  return {
    hmacSignatureSecret: hashToken('proof-of-work:challenge', secret),
    hmacKeySignatureSecret: hashToken('proof-of-work:key', secret),
  };
}
