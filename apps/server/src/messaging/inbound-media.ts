import type { Config } from '../config';
import { CLIP_REFUSALS, convertClip, type ClipLimits, type ConvertedClip } from '../media/clip';
import { findFfmpeg } from '../media/ffmpeg';
import type { Transcriber } from '../media/transcribe';
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
/** The simulator's paperclip menu sends a kind of attachment with no file behind it. */
const SIMULATED_WITHOUT_FILE = 'the Phone Simulator sent no file with it (choose an audio or video file to attach)';
/** A fetch refused for a reason that is no use to the sender (a host, an address). */
const NOT_DOWNLOADED = 'it could not be downloaded';

/** Media Loop does not share, by kind: each gets its own accurate reply. */
export interface UnsupportedMedia {
  /** Videos and voice memos on a server without ffmpeg (decision 0023). */
  audioVideo: number;
  /** vCards (text/vcard, text/x-vcard): a shared contact. */
  contacts: number;
  /** Any other file (application/pdf...), by its declared type. */
  files: string[];
}

export interface InboundMedia {
  /** Converted by the photo pipeline: upright, no metadata, WebP sizes. */
  photos: ConvertedPhoto[];
  /** Voice memos and videos converted by ffmpeg (media/clip.ts): AAC / H.264 MP4, no metadata. */
  clips: ConvertedClip[];
  unsupported: UnsupportedMedia;
  /** Why each photo that could not be kept was refused (too large, not a photo, damaged...), for the reply. */
  refused: string[];
  /** Why each voice memo or video could not be kept (too long, unreadable...), with what to send instead. */
  refusedClips: string[];
  /** A temporary failure worth trying the whole message again for. */
  retryable: boolean;
  /** Simulator uploads to remove once their media are copied into updates. */
  uploads: string[];
}

/** Collects every MediaUrlN of an inbound text (at most 10): photos and voice memos/videos converted, the rest counted. */
export async function collectInboundMedia(
  params: InboundParams,
  options: {
    config: Config;
    storage: MediaStorage;
    fromSimulator: boolean;
    fetchOptions?: FetchMediaOptions;
    transcriber?: Transcriber | null;
  },
): Promise<InboundMedia> {
  const result = noMedia();
  const count = Math.min(Number.parseInt(params.NumMedia ?? '0', 10) || 0, MAX_MEDIA);
  const { config } = options;
  const clipLimits = clipLimitsFor(config, (params.From ?? '').startsWith('whatsapp:'));
  for (let i = 0; i < count; i++) {
    const url = params[`MediaUrl${i}`];
    const declared = (params[`MediaContentType${i}`] ?? '').toLowerCase();
    if (!url) continue;
    const kind = sortMedia(result, declared, clipLimits);
    if (kind === null) continue;
    const clip = kind === 'clip';
    const refused = clip ? result.refusedClips : result.refused;
    if (url.startsWith(SIMULATED_ATTACHMENT_PREFIX)) {
      refused.push(SIMULATED_WITHOUT_FILE);
      continue;
    }
    const add = async (bytes: Buffer) => {
      if (clip && clipLimits) await addClip(result, bytes, clipLimits, options.transcriber ?? null);
      else await addPhoto(result, bytes);
    };
    if (url.startsWith(SIMULATOR_MEDIA_PREFIX)) {
      const key = url.slice(SIMULATOR_MEDIA_PREFIX.length);
      const bytes = options.fromSimulator ? await options.storage.get(key) : null;
      if (bytes) await add(bytes);
      else refused.push(NOT_DOWNLOADED);
      if (options.fromSimulator) result.uploads.push(key);
      continue;
    }
    const maxBytes = clip && clipLimits ? clipLimits.maxBytes : undefined;
    const fetched = await fetchMedia(
      url,
      {
        accountSid: config.TWILIO_ACCOUNT_SID ?? '',
        authToken: config.TWILIO_AUTH_TOKEN ?? '',
        ...(config.TWILIO_API_BASE_URL ? { trustedOrigin: config.TWILIO_API_BASE_URL } : {}),
      },
      maxBytes ? { ...options.fetchOptions, maxBytes } : options.fetchOptions,
    );
    if (fetched.ok) {
      await add(fetched.bytes);
    } else {
      // fetch-media words a too-large file for photos (5 MB); a clip has its own limit.
      if (clip && clipLimits && fetched.reason === PHOTO_REFUSALS.tooLarge) refused.push(CLIP_REFUSALS.tooLarge(clipLimits.maxBytes));
      else refused.push(KNOWN_REFUSALS.includes(fetched.reason) ? fetched.reason : NOT_DOWNLOADED);
      result.retryable ||= fetched.retryable;
    }
  }
  return result;
}

/** A file attached to an e-mail: its declared type and its bytes. */
export interface Attachment {
  contentType: string;
  bytes: Buffer;
}

/**
 * The files of an e-mail reply (at most 10, as a text's), through the same pipelines as a text's
 * media: photos converted (upright, no metadata, WebP sizes), voice memos and videos converted
 * and transcribed, the rest counted by kind for the reply. The bytes are here already: nothing is
 * fetched, so nothing is worth trying again.
 */
export async function convertAttachments(
  attachments: readonly Attachment[],
  options: { config: Config; transcriber?: Transcriber | null },
): Promise<InboundMedia> {
  const result = noMedia();
  // An e-mail carries a clip up to WhatsApp's 16 MB: the listener's message size allows it.
  const clipLimits = clipLimitsFor(options.config, true);
  for (const attachment of attachments.slice(0, MAX_MEDIA)) {
    const kind = sortMedia(result, attachment.contentType, clipLimits);
    if (kind === 'clip' && clipLimits) await addClip(result, attachment.bytes, clipLimits, options.transcriber ?? null);
    else if (kind === 'photo') await addPhoto(result, attachment.bytes);
  }
  return result;
}

function noMedia(): InboundMedia {
  return {
    photos: [],
    clips: [],
    unsupported: { audioVideo: 0, contacts: 0, files: [] },
    refused: [],
    refusedClips: [],
    retryable: false,
    uploads: [],
  };
}

/**
 * Which pipeline a file of this declared type goes through (an unknown type is tried as a
 * photo), or null when Loop does not share it: then it is counted in `result.unsupported`.
 */
function sortMedia(result: InboundMedia, declared: string, clipLimits: ClipLimits | null): 'photo' | 'clip' | null {
  const type = declared.toLowerCase().split(';')[0]?.trim() ?? '';
  const clip = type.startsWith('audio/') || type.startsWith('video/');
  if (type.startsWith('image/') || type === '') return 'photo';
  if (clip && clipLimits) return 'clip';
  if (clip) result.unsupported.audioVideo += 1;
  else if (type === 'text/vcard' || type === 'text/x-vcard' || type === 'text/directory') result.unsupported.contacts += 1;
  else result.unsupported.files.push(type);
  return null;
}

/**
 * How voice memos and videos are taken from this sender, or null where this server has no ffmpeg.
 * Twilio takes about 5 MB per MMS in all (https://www.twilio.com/docs/messaging/guides/accepted-mime-types);
 * WhatsApp takes audio and video up to 16 MB (https://developers.facebook.com/docs/whatsapp/cloud-api/reference/media#supported-media-types).
 */
export function clipLimitsFor(config: Config, whatsApp: boolean): ClipLimits | null {
  const tools = findFfmpeg(config.FFMPEG_PATH);
  if (!tools) return null;
  return {
    tools,
    maxBytes: whatsApp ? config.WHATSAPP_MEDIA_MAX_BYTES : config.MMS_MEDIA_MAX_BYTES,
    voiceMaxSeconds: config.VOICE_MAX_SECONDS,
    videoMaxSeconds: config.VIDEO_MAX_SECONDS,
    videoPixelBudget: config.VIDEO_DECODE_BUDGET_MEGAPIXELS * 1_000_000,
    timeoutMs: config.FFMPEG_TIMEOUT_SECONDS * 1000,
  };
}

/**
 * A voice memo or video, converted; a voice memo then transcribed where an endpoint is set
 * (decision 0024). A transcription that fails or times out leaves the memo without words.
 */
async function addClip(result: InboundMedia, bytes: Buffer, limits: ClipLimits, transcriber: Transcriber | null): Promise<void> {
  const converted = await convertClip(bytes, limits);
  if (!converted.ok) {
    result.refusedClips.push(converted.reason);
    return;
  }
  const { clip } = converted;
  const transcript = clip.kind === 'audio' && transcriber ? await transcriber.transcribe(clip.bytes) : null;
  result.clips.push(transcript ? { ...clip, transcript } : clip);
}

async function addPhoto(result: InboundMedia, bytes: Buffer): Promise<void> {
  const converted = await convertPhoto(bytes);
  if (converted.ok) result.photos.push(converted.photo);
  else result.refused.push(converted.reason);
}
