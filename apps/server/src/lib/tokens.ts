import { createHmac, randomBytes } from 'node:crypto';

/** An unguessable token: 256 random bits, base64url (43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** A keyed hash of a token, so that a copy of the database does not hold usable tokens. */
export function hashToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('base64url');
}
