import { hashToken, sameHash } from '../lib/tokens';

/** How long a voice memo's link in a call's TwiML opens: long enough for the call to reach it. */
export const MEDIA_LINK_MS = 60 * 60 * 1000;

function sign(secret: string, key: string, expires: number): string {
  return hashToken(`call-media:${key}:${expires}`, secret);
}

/**
 * A short-lived link to a voice memo for Twilio's <Play> (decision 0067): the memo's storage key,
 * an expiry and an HMAC of both. Twilio keeps call logs; a link in them stops working within the
 * hour, unlike the memo's permanent /media address, which the TwiML never shows.
 */
export function callMediaPath(secret: string, key: string, now: Date): string {
  const expires = now.getTime() + MEDIA_LINK_MS;
  return `/api/webhooks/twilio/voice/media/${key}?e=${expires}&t=${sign(secret, key, expires)}`;
}

/** Whether a link's expiry and tag are the server's and still good. */
export function validMediaLink(secret: string, key: string, expires: string, token: string, now: Date): boolean {
  const at = Number(expires);
  if (!/^[0-9]{1,15}$/.test(expires) || at < now.getTime() || at > now.getTime() + MEDIA_LINK_MS) return false;
  return sameHash(sign(secret, key, at), token);
}
