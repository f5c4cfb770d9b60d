import type { z } from 'zod';
import {
  isSimulatorClipType,
  SIMULATOR_ATTACHMENT_TYPES,
  SIMULATOR_LIMITS,
  type SimulatorClipType,
  type simulatorSendSchema,
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

/**
 * A text from a simulated phone. It is shaped like Twilio's webhook parameters and stored by the
 * same ingestInbound, so the same worker routes it exactly like a real text. Photos, voice memos
 * and videos go to storage first and travel as `loop-media:{key}` URLs, which only simulator
 * messages may use; the worker converts them as it does a real MMS's (media/clip.ts, photo.ts).
 */
export async function sendSimulatedText(
  db: Db,
  input: {
    phoneNumber: string;
    channel: 'sms' | 'whatsapp';
    text: z.output<typeof simulatorSendSchema>;
    storage: MediaStorage;
    /** The largest voice memo or video each channel takes (config.ts: MMS_MEDIA_MAX_BYTES, WHATSAPP_MEDIA_MAX_BYTES). */
    clipMaxBytes: { sms: number; whatsapp: number };
    /** The Loops the text may reach when the viewer plays someone else's phone; null: all of the sender's. */
    scope?: readonly number[] | null;
    now: Date;
  },
): Promise<{ id: number }> {
  const files = input.text.media.map((m, i) => {
    const bytes = Buffer.from(m.dataBase64, 'base64');
    if (isSimulatorClipType(m.contentType))
      return { bytes, contentType: checkedClip(bytes, m.contentType, i, input.channel, input.clipMaxBytes) };
    if (bytes.length > SIMULATOR_LIMITS.photoBytes) throw new AppError('payload_too_large', `Photo ${i + 1} is larger than 5 MB.`);
    const actual = sniffImageType(bytes);
    if (!actual || actual !== m.contentType) {
      throw new AppError('bad_request', `Photo ${i + 1} is not a ${m.contentType.replace('image/', '').toUpperCase()} image.`);
    }
    return { bytes, contentType: actual };
  });
  const total = files.reduce((sum, p) => sum + p.bytes.length, 0);
  if (total > SIMULATOR_LIMITS.totalBytes)
    throw new AppError('payload_too_large', 'The photos, voice memos and videos together must be at most 20 MB.');

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

const MB = 1024 * 1024;

/**
 * A voice memo's or video's bytes, held to the channel's limit and checked to be a container
 * Loop reads (the same sniffing as the pipeline's). Its declared type says audio or video.
 */
function checkedClip(
  bytes: Buffer,
  declared: SimulatorClipType,
  index: number,
  channel: 'sms' | 'whatsapp',
  limits: { sms: number; whatsapp: number },
): SimulatorClipType {
  const what = declared.startsWith('audio/') ? 'voice memo' : 'video';
  const max = limits[channel];
  if (bytes.length > max) {
    const by = channel === 'whatsapp' ? 'on WhatsApp' : 'by SMS/MMS';
    throw new AppError(
      'payload_too_large',
      `The ${what} (file ${index + 1}) is ${(bytes.length / MB).toFixed(1)} MB; ${by} it can be at most ${Math.floor(max / MB)} MB.`,
    );
  }
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
