import { randomInt } from 'node:crypto';
import { hashToken } from '../../lib/tokens';
import { MINUTE_MS } from '../../lib/clock';

/** How long the code a DELETE texts back confirms it (decision 0045). */
export const ERASURE_CODE_MINUTES = 10;
export const ERASURE_CODE_MS = ERASURE_CODE_MINUTES * MINUTE_MS;

/** A new six-digit code for a DELETE to be confirmed with, and its keyed hash for this phone. */
export function newErasureCode(phone: string, secret: string): { code: string; codeHash: string } {
  const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
  return { code, codeHash: erasureCodeHash(phone, code, secret) };
}

/** The keyed hash kept of a DELETE code: only the phone that was texted it can use it. */
export function erasureCodeHash(phone: string, code: string, secret: string): string {
  return hashToken(`erase:${phone}:${code}`, secret);
}
