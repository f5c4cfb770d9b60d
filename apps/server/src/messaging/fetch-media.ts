import { lookup as dnsLookup } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { PHOTO_REFUSALS } from '../media/photo';
import { MAX_IMAGE_BYTES } from '../storage/image-type';
import { isPrivateAddress, isTrustedOrigin, refuseMediaUrl, sendsCredentials, type MediaPolicy } from './media-policy';

export type FetchedMedia = { ok: true; bytes: Buffer } | { ok: false; reason: string; retryable: boolean };

export interface FetchMediaOptions {
  maxBytes?: number;
  timeoutMs?: number;
  /** The Accept header (default image/*): a call's recording asks for audio. */
  accept?: string;
  /** DNS, replaceable in tests. */
  lookup?: LookupFunction;
}

const MAX_REDIRECTS = 3;

/**
 * Copies one media file from Twilio: https and Twilio's hosts only (each redirect checked again),
 * never a private or link-local address (checked on the address actually connected to, so DNS
 * cannot swap it afterwards), at most 5 MB. What the bytes are, the photo or clip pipeline decides.
 */
export async function fetchMedia(rawUrl: string, policy: MediaPolicy, options: FetchMediaOptions = {}): Promise<FetchedMedia> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return { ok: false, reason: 'not a URL', retryable: false };
  }
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refusal = refuseMediaUrl(url, policy);
    if (refusal) return { ok: false, reason: refusal, retryable: false };
    let response: IncomingMessage;
    try {
      response = await get(url, policy, options);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { ok: false, reason, retryable: !(error instanceof RefusedAddress) };
    }
    const status = response.statusCode ?? 0;
    if (status >= 300 && status < 400 && response.headers.location) {
      response.resume();
      url = new URL(response.headers.location, url);
      continue;
    }
    if (status !== 200) {
      response.resume();
      return { ok: false, reason: `the media host answered ${status}`, retryable: status === 429 || status >= 500 };
    }
    return readImage(response, options.maxBytes ?? MAX_IMAGE_BYTES);
  }
  return { ok: false, reason: 'too many redirects', retryable: false };
}

class RefusedAddress extends Error {}

function get(url: URL, policy: MediaPolicy, options: FetchMediaOptions): Promise<IncomingMessage> {
  const trusted = isTrustedOrigin(url, policy);
  const resolve = options.lookup ?? dnsLookup;
  const checkedLookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = Array.isArray(addresses) ? addresses : [];
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), '', 0);
      const blocked = list.find((a) => isPrivateAddress(a.address));
      if (blocked && !trusted) {
        return callback(new RefusedAddress(`${hostname} resolves to a private address (${blocked.address})`), '', 0);
      }
      if (lookupOptions.all) return callback(null, list);
      return callback(null, first.address, first.family);
    });
  };
  const headers: Record<string, string> = { accept: options.accept ?? 'image/*' };
  if (sendsCredentials(url, policy)) {
    headers.authorization = `Basic ${Buffer.from(`${policy.accountSid}:${policy.authToken}`).toString('base64')}`;
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolvePromise, reject) => {
    const request = client.get(url, { headers, lookup: checkedLookup, timeout: options.timeoutMs ?? 20_000 }, resolvePromise);
    request.on('timeout', () => request.destroy(new Error('the media host did not answer in time')));
    request.on('error', reject);
  });
}

function readImage(response: IncomingMessage, maxBytes: number): Promise<FetchedMedia> {
  const declared = Number(response.headers['content-length'] ?? '0');
  if (declared > maxBytes) {
    response.destroy();
    return Promise.resolve({ ok: false, reason: PHOTO_REFUSALS.tooLarge, retryable: false });
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        response.destroy();
        resolve({ ok: false, reason: PHOTO_REFUSALS.tooLarge, retryable: false });
        return;
      }
      chunks.push(chunk);
    });
    response.on('error', (error) => resolve({ ok: false, reason: error.message, retryable: true }));
    response.on('end', () => {
      // What the bytes are is for the photo and clip pipelines to find out (media/photo.ts, clip.ts), never the sender's header.
      resolve({ ok: true, bytes: Buffer.concat(chunks) });
    });
  });
}
