import type { Config } from '../config';
import type { MediaStorage } from '../storage/media-storage';
import { MAX_IMAGE_BYTES, sniffImageType, type ImageType } from '../storage/image-type';
import { fetchMedia, type FetchMediaOptions } from './fetch-media';
import type { InboundParams } from './ingest-inbound';

/** Media a simulated phone attached: already in our storage, under this key. */
export const SIMULATOR_MEDIA_PREFIX = 'loop-media:';
/** A simulated phone's video, voice memo, contact or PDF: no bytes, only its content type. */
export const SIMULATED_ATTACHMENT_PREFIX = 'loop-simulated:';
const MAX_MEDIA = 10;

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
  photos: { bytes: Buffer; contentType: ImageType }[];
  unsupported: UnsupportedMedia;
  /** Photos that could not be copied (refused, too large, not an image). */
  skipped: number;
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
  const result: InboundMedia = { photos: [], unsupported: { audioVideo: 0, contacts: 0, files: [] }, skipped: 0, retryable: false, uploads: [] };
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
      const contentType = bytes && bytes.length <= MAX_IMAGE_BYTES ? sniffImageType(bytes) : null;
      if (bytes && contentType) result.photos.push({ bytes, contentType });
      else result.skipped += 1;
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
      result.photos.push({ bytes: fetched.bytes, contentType: fetched.contentType });
    } else {
      result.skipped += 1;
      result.retryable ||= fetched.retryable;
    }
  }
  return result;
}
