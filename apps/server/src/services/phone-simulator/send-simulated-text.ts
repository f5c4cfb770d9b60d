import {
  isSimulatorClipType,
  SIMULATOR_ATTACHMENT_TYPES,
  SIMULATOR_IMAGE_TYPES,
  SIMULATOR_LIMITS,
  SIMULATOR_REFUSALS,
  type SimulatorClipType,
  type SimulatorText,
} from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { randomToken } from '../../lib/tokens';
import { sniffClipFormat } from '../../media/clip';
import { sniffImageType } from '../../storage/image-type';
import type { MediaStorage } from '../../storage/media-storage';
import { SIMULATED_ATTACHMENT_PREFIX, SIMULATOR_MEDIA_PREFIX } from '../../messaging/inbound-media';
import { ingestInbound, type InboundParams } from '../../messaging/ingest-inbound';
import { SIMULATOR_ADDRESS, SIMULATOR_SCOPE_PARAM } from '../../messaging/simulator';

/** A photo, voice memo or video a simulated phone attached, as it came in its multipart part. */
export interface SimulatorFile {
  contentType: string;
  bytes: Buffer;
}

/** The largest voice memo or video each channel takes (config.ts: MMS_MEDIA_MAX_BYTES, WHATSAPP_MEDIA_MAX_BYTES). */
export type ClipMaxBytes = { sms: number; whatsapp: number };

const MB = 1024 * 1024;

/**
 * How large file `index` (from 0) of this type may be on this channel, and the 413 past it: photos
 * 5 MB, voice memos and videos the channel's own limit, as Twilio and WhatsApp hold real media. A
 * type the simulator does not take is a 400. The route stops reading a file at this size.
 */
export function simulatorFileLimit(
  contentType: string,
  index: number,
  channel: 'sms' | 'whatsapp',
  clipMaxBytes: ClipMaxBytes,
): { maxBytes: number; tooLarge: () => AppError } {
  if (isSimulatorClipType(contentType)) {
    const what = contentType.startsWith('audio/') ? 'voice memo' : 'video';
    const max = clipMaxBytes[channel];
    const by = channel === 'whatsapp' ? 'on WhatsApp' : 'by SMS/MMS';
    return {
      maxBytes: max,
      tooLarge: () =>
        new AppError(
          'payload_too_large',
          `The ${what} (file ${index + 1}) is too large: ${by} it can be at most ${Math.floor(max / MB)} MB.`,
        ),
    };
  }
  if ((SIMULATOR_IMAGE_TYPES as readonly string[]).includes(contentType)) {
    return {
      maxBytes: SIMULATOR_LIMITS.photoBytes,
      tooLarge: () => new AppError('payload_too_large', `Photo ${index + 1} is larger than 5 MB.`),
    };
  }
  throw new AppError('bad_request', SIMULATOR_REFUSALS.fileType);
}

/** The 413 for all files of one text together. */
export function simulatorFilesTooLarge(): AppError {
  return new AppError('payload_too_large', 'The photos, voice memos and videos together must be at most 20 MB.');
}

/**
 * A text from a simulated phone. It is shaped like Twilio's webhook parameters and stored by the
 * same ingestInbound, so the same worker routes it exactly like a real text. Photos, voice memos
 * and videos (multipart files, decision 0032) go to storage first and travel as `loop-media:{key}`
 * URLs, which only simulator messages may use; the worker converts them as it does a real MMS's
 * (media/clip.ts, photo.ts).
 */
export async function sendSimulatedText(
  db: Db,
  input: {
    phoneNumber: string;
    channel: 'sms' | 'whatsapp';
    text: SimulatorText;
    files: readonly SimulatorFile[];
    storage: MediaStorage;
    clipMaxBytes: ClipMaxBytes;
    /** The Loops the text may reach when the viewer plays someone else's phone; null: all of the sender's. */
    scope?: readonly number[] | null;
    now: Date;
  },
): Promise<{ id: number }> {
  const { text } = input;
  if (text.body.trim() === '' && input.files.length === 0 && text.attachments.length === 0 && text.location === undefined)
    throw new AppError('bad_request', SIMULATOR_REFUSALS.nothing);
  if (input.files.length + text.attachments.length > SIMULATOR_LIMITS.files) throw new AppError('bad_request', SIMULATOR_REFUSALS.tooMany);
  const files = input.files.map(({ bytes, contentType }, i) => {
    const limit = simulatorFileLimit(contentType, i, input.channel, input.clipMaxBytes);
    if (bytes.length > limit.maxBytes) throw limit.tooLarge();
    if (isSimulatorClipType(contentType)) return { bytes, contentType: checkedClip(bytes, contentType, i) };
    const actual = sniffImageType(bytes);
    if (!actual || actual !== contentType) {
      throw new AppError('bad_request', `Photo ${i + 1} is not a ${contentType.replace('image/', '').toUpperCase()} image.`);
    }
    return { bytes, contentType: actual };
  });
  const total = files.reduce((sum, p) => sum + p.bytes.length, 0);
  if (total > SIMULATOR_LIMITS.totalBytes) throw simulatorFilesTooLarge();

  const { location, attachments } = input.text;
  // As on a real phone: a location pin is a WhatsApp message; SMS has none.
  if (location && input.channel !== 'whatsapp') throw new AppError('bad_request', 'A location can only be sent on WhatsApp.');

  const prefix = input.channel === 'whatsapp' ? 'whatsapp:' : '';
  const params: InboundParams = {
    MessageSid: `SM${randomToken(16)}`,
    AccountSid: 'simulator',
    From: `${prefix}${input.phoneNumber}`,
    To: `${prefix}${SIMULATOR_ADDRESS}`,
    Body: input.text.body,
    NumMedia: String(files.length + attachments.length),
    // Twilio's WhatsApp parameters (https://www.twilio.com/docs/messaging/guides/webhook-request).
    ...(input.channel === 'whatsapp'
      ? {
          MessageType: whatsAppMessageType(location !== undefined, [
            ...files.map((p) => p.contentType),
            ...attachments.map((a) => SIMULATOR_ATTACHMENT_TYPES[a]),
          ]),
        }
      : {}),
    ...(location ? { Latitude: String(location.latitude), Longitude: String(location.longitude) } : {}),
    ...(input.scope ? { [SIMULATOR_SCOPE_PARAM]: input.scope.join(',') } : {}),
  };
  // Not stored anywhere: Loop only reads what they are (their content type).
  attachments.forEach((kind, i) => {
    params[`MediaUrl${files.length + i}`] = `${SIMULATED_ATTACHMENT_PREFIX}${kind}`;
    params[`MediaContentType${files.length + i}`] = SIMULATOR_ATTACHMENT_TYPES[kind];
  });
  const keys: string[] = [];
  for (const [i, file] of files.entries()) {
    const key = await input.storage.put(file.bytes);
    keys.push(key);
    params[`MediaUrl${i}`] = `${SIMULATOR_MEDIA_PREFIX}${key}`;
    params[`MediaContentType${i}`] = file.contentType;
  }
  try {
    const stored = await ingestInbound(db, params, input.now);
    if (stored.id === null) throw new Error('the simulated text was not stored');
    return { id: stored.id };
  } catch (error) {
    for (const key of keys) await input.storage.delete(key);
    throw error;
  }
}

/** A voice memo's or video's bytes, checked to be a container Loop reads (the pipeline's own sniffing). */
function checkedClip(bytes: Buffer, declared: SimulatorClipType, index: number): SimulatorClipType {
  const what = declared.startsWith('audio/') ? 'voice memo' : 'video';
  if (bytes.length === 0 || !sniffClipFormat(bytes)) {
    throw new AppError(
      'bad_request',
      `File ${index + 1} is not a ${what} Loop can read: send MP4, MOV, 3GP, M4A, MP3, AMR, Ogg, WAV, FLAC or WebM.`,
    );
  }
  return declared;
}

/** Twilio's WhatsApp MessageType (https://www.twilio.com/docs/messaging/guides/webhook-request): by the first file. */
function whatsAppMessageType(location: boolean, types: string[]): string {
  if (location) return 'location';
  const first = types[0];
  if (!first) return 'text';
  if (first.startsWith('audio/')) return 'audio';
  if (first.startsWith('video/')) return 'video';
  if (first.startsWith('image/')) return 'image';
  return 'document';
}
