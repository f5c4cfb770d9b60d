import { hashToken } from '../../lib/tokens';

/**
 * A member's own link to their Loop's past issues, for members without an account (decision
 * 0053): `{memberId}-{keyed hash}` under SESSION_SECRET, so nothing is stored and nobody without
 * the secret can make one. It opens the archive only while that membership is active: removed,
 * declined or left, it is the 404; added again, the membership is new and so is the link.
 */
export function personalArchiveKey(secret: string, memberId: number): string {
  return `${memberId}-${keyedHash(secret, memberId)}`;
}

function keyedHash(secret: string, memberId: number): string {
  return hashToken(`newsletter-archive:${memberId}`, secret).slice(0, 32);
}
