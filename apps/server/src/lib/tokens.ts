import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** An unguessable token: 256 random bits, base64url (43 characters). */
export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/**
 * Random bytes of each token a stranger could guess (docs/architecture.md#tokens: at least 128 bits). The
 * services and test/security/tokens.test.ts both call newToken(), so the test checks what runs.
 */
export const TOKEN_BYTES = {
  /** The session cookie. */
  session: 32,
  /** An invite link's code: 22 characters keep the link short enough to text. */
  invite: 16,
  /** A newsletter's public address. */
  newsletterUrlId: 32,
  /** Stored media's storage key, which is also its public path. */
  mediaKey: 32,
  /** The cookie that binds a texted code to the browser that asked for it (decision 0027). */
  codeHolder: 32,
} as const;
export type TokenKind = keyof typeof TOKEN_BYTES;

export function newToken(kind: TokenKind): string {
  return randomToken(TOKEN_BYTES[kind]);
}

/** A keyed hash of a token, so that a copy of the database does not hold usable tokens. */
export function hashToken(token: string, secret: string): string {
  return createHmac('sha256', secret).update(token).digest('base64url');
}

/** Whether two hashes or tags are the same, in time that does not depend on where they differ. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
