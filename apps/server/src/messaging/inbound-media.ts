import type { Config } from '../config';
import { convertPhoto, PHOTO_REFUSALS, type ConvertedPhoto } from '../media/photo';
import type { MediaStorage } from '../storage/media-storage';
import { fetchMedia, type FetchMediaOptions } from './fetch-media';
import type { InboundParams } from './ingest-inbound';

/** Media a simulated phone attached: already in our storage, under this key. */
export const SIMULATOR_MEDIA_PREFIX = 'loop-media:';
/** A simulated phone's video, voice memo, contact or PDF: no bytes, only its content type. */
export const SIMULATED_ATTACHMENT_PREFIX = 'loop-simulated:';
const MAX_MEDIA = 10;
const KNOWN_REFUSALS: readonly string[] = Object.values(PHOTO_REFUSALS);
/** A fetch refused for a reason that is no use to the sender (a host, an address). */
const NOT_DOWNLOADED = 'it could not be downloaded';

/** Media Loop does not share, by kind: each gets its own accurate reply. */
export interface UnsupportedMedia {
  /** Videos and voice memos: announced as coming later (SPEC). */
  audioVideo: number;
  /** vCards (text/vcard, text/x-vcard): a shared contact. */
  contacts: number;
  /** Any other file (application/pdf...), by its declared type. */
  files: string[];
}

export interface InboundMedia {
  /** Converted by the photo pipeline: upright, no metadata, WebP sizes. */
  photos: ConvertedPhoto[];
  unsupported: UnsupportedMedia;
  /** Why each photo that could not be kept was refused (too large, not a photo, damaged...), for the reply. */
  refused: string[];
  /** A temporary failure worth trying the whole message again for. */
  retryable: boolean;
  /** Simulator uploads to remove once the photos are copied into updates. */
  uploads: string[];
}

/** Collects every MediaUrlN of an inbound text (at most 10): photos copied, the rest counted. */
export async function collectInboundMedia(
  params: InboundParams,
  options: { config: Config; storage: MediaStorage; fromSimulator: boolean; fetchOptions?: FetchMediaOptions },
): Promise<InboundMedia> {
  const result: InboundMedia = { photos: [], unsupported: { audioVideo: 0, contacts: 0, files: [] }, refused: [], retryable: false, uploads: [] };
  const count = Math.min(Number.parseInt(params.NumMedia ?? '0', 10) || 0, MAX_MEDIA);
  const { config } = options;
  for (let i = 0; i < count; i++) {
    const url = params[`MediaUrl${i}`];
    const declared = (params[`MediaContentType${i}`] ?? '').toLowerCase();
    if (!url) continue;
    if (!declared.startsWith('image/') && declared !== '') {
      const type = declared.split(';')[0]?.trim() ?? '';
      if (type.startsWith('audio/') || type.startsWith('video/')) result.unsupported.audioVideo += 1;
      else if (type === 'text/vcard' || type === 'text/x-vcard' || type === 'text/directory') result.unsupported.contacts += 1;
      else result.unsupported.files.push(type);
      continue;
    }
    if (url.startsWith(SIMULATOR_MEDIA_PREFIX)) {
      const key = url.slice(SIMULATOR_MEDIA_PREFIX.length);
      const bytes = options.fromSimulator ? await options.storage.get(key) : null;
      if (bytes) await addPhoto(result, bytes);
      else result.refused.push(NOT_DOWNLOADED);
      if (options.fromSimulator) result.uploads.push(key);
      continue;
    }
    const fetched = await fetchMedia(
      url,
      {
        accountSid: config.TWILIO_ACCOUNT_SID ?? '',
        authToken: config.TWILIO_AUTH_TOKEN ?? '',
        ...(config.TWILIO_API_BASE_URL ? { trustedOrigin: config.TWILIO_API_BASE_URL } : {}),
      },
      options.fetchOptions,
    );
    if (fetched.ok) {
      await addPhoto(result, fetched.bytes);
    } else {
      result.refused.push(KNOWN_REFUSALS.includes(fetched.reason) ? fetched.reason : NOT_DOWNLOADED);
      result.retryable ||= fetched.retryable;
    }
  }
  return result;
}

async function addPhoto(result: InboundMedia, bytes: Buffer): Promise<void> {
  const converted = await convertPhoto(bytes);
  if (converted.ok) result.photos.push(converted.photo);
  else result.refused.push(converted.reason);
}
