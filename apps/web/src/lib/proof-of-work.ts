import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import type { Challenge } from 'altcha-lib/types';
import type { ProofOfWorkChallenge } from '@loop/shared/auth';
import { api } from '@/lib/api-client';

/** GET /api/proof-of-work: the challenge to solve before a form texts a code (null: the server asks for none). */
export function getProofOfWorkChallenge(): Promise<ProofOfWorkChallenge> {
  return api.get<ProofOfWorkChallenge>('/api/proof-of-work');
}

/** The server keeps a challenge 20 minutes; one older than this is solved again. */
const FRESH_FOR_MS = 15 * 60_000;

let prepared: { at: number; proof: Promise<string | undefined> } | undefined;

/** Fetches a challenge and solves it with WebCrypto (about a second): the form's `altcha` field. */
async function solve(): Promise<string | undefined> {
  const { challenge } = await getProofOfWorkChallenge();
  if (!challenge) return undefined;
  const solution = await solveChallenge({ challenge: challenge as unknown as Challenge, deriveKey });
  if (!solution) throw new Error('The check against spam did not finish. Please try again.');
  return btoa(JSON.stringify({ challenge, solution }));
}

/**
 * Starts solving in the background, so the proof is ready by the time the person sends the form
 * (decision 0030). Forms that text a code call it when they open; nothing shows.
 */
export function prepareProofOfWork(): void {
  if (prepared && Date.now() - prepared.at < FRESH_FOR_MS) return;
  const proof = solve();
  // A failure (offline) is tried again when the form is sent.
  proof.catch(() => {
    if (prepared?.proof === proof) prepared = undefined;
  });
  prepared = { at: Date.now(), proof };
}

/**
 * The solved proof for one form (each is good once), waiting for it if need be. The next one
 * ("Resend code") is solved when it is asked for: most people never need it.
 */
export async function takeProofOfWork(): Promise<string | undefined> {
  prepareProofOfWork();
  const proof = prepared?.proof ?? solve();
  prepared = undefined;
  return proof.catch(() => solve());
}
