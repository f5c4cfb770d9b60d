import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import twilio from 'twilio';
import { toWellFormed } from '@loop/shared/text';
import type { Config } from '../../config';
import { AppError } from '../../errors';

/**
 * Checks X-Twilio-Signature over PUBLIC_URL + the path and the form parameters, and returns the
 * parameters. Anything else (no Twilio settings, no or wrong signature, repeated fields) is a 403
 * or 400 before anything is stored.
 */
export function verifiedParams(request: FastifyRequest, config: Config): Record<string, string> {
  const token = config.TWILIO_AUTH_TOKEN;
  if (!token) throw new AppError('forbidden', 'Twilio is not configured on this server, so its webhooks are refused.');
  const signature = request.headers['x-twilio-signature'];
  if (typeof signature !== 'string' || signature === '') {
    throw new AppError('forbidden', 'Missing X-Twilio-Signature: only Twilio may call this webhook.');
  }
  const body = (request.body ?? {}) as Record<string, unknown>;
  const params: Record<string, string> = {};
  for (const [key, value] of Object.entries(body)) {
    if (typeof value !== 'string') throw new AppError('bad_request', `Field ${key} must appear once.`);
    params[key] = value;
  }
  if (!validSignature(token, signature, `${config.PUBLIC_URL}${request.url}`, params)) {
    throw new AppError('forbidden', 'Invalid X-Twilio-Signature: check that PUBLIC_URL is the address Twilio calls.');
  }
  // PostgreSQL cannot store NUL, nor (in jsonb) a lone surrogate: a text that carries one is stored without it.
  const clean = (text: string) => toWellFormed(text.replaceAll('\u0000', ''));
  return Object.fromEntries(Object.entries(params).map(([key, value]) => [clean(key), clean(value)]));
}

/**
 * The SDK's check, with the common case first: Twilio signs the URL it calls, which is
 * PUBLIC_URL + the path as configured, so one HMAC over that URL settles a genuine request.
 * Anything else goes to twilio.validateRequest, which also tries the URL with and without the
 * default port and normalized (each try is another HMAC and URL parse).
 */
function validSignature(token: string, signature: string, url: string, params: Record<string, string>): boolean {
  const expected = Buffer.from(twilio.getExpectedTwilioSignature(token, url, params));
  const given = Buffer.from(signature);
  if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
  return twilio.validateRequest(token, signature, url, params);
}
