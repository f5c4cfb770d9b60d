import type { z } from 'zod';
import { SIMULATOR_ATTACHMENT_TYPES, SIMULATOR_LIMITS, type simulatorSendSchema } from '@loop/shared/simulator';
import type { Db } from '../../db/client';
import { AppError } from '../../errors';
import { randomToken } from '../../lib/tokens';
import { sniffImageType } from '../../storage/image-type';
import type { MediaStorage } from '../../storage/media-storage';
import { SIMULATED_ATTACHMENT_PREFIX, SIMULATOR_MEDIA_PREFIX } from '../inbound-media';
import { ingestInbound, type InboundParams } from '../ingest-inbound';
import { SIMULATOR_ADDRESS, SIMULATOR_SCOPE_PARAM } from '../simulator';

/**
 * A text from a simulated phone. It is shaped like Twilio's webhook parameters and stored by the
 * same ingestInbound, so the same worker routes it exactly like a real text. Photos go to storage
 * first and travel as `loop-media:{key}` URLs, which only simulator messages may use.
 */
export async function sendSimulatedText(
  db: Db,
  input: {
    phoneNumber: string;
    channel: 'sms' | 'whatsapp';
    text: z.output<typeof simulatorSendSchema>;
    storage: MediaStorage;
    /** The Loops the text may reach when the viewer plays someone else's phone; null: all of the sender's. */
    scope?: readonly number[] | null;
    now: Date;
  },
): Promise<{ id: number }> {
  const photos = input.text.media.map((m, i) => {
    const bytes = Buffer.from(m.dataBase64, 'base64');
    const clip = !m.contentType.startsWith('image/');
    if (bytes.length > SIMULATOR_LIMITS.photoBytes) {
      throw new AppError('payload_too_large', `${clip ? 'Voice memo or video' : 'Photo'} ${i + 1} is larger than 5 MB.`);
    }
    // A voice memo or video is read by the clip pipeline, which says what it really is in its reply.
    if (clip) return { bytes, contentType: m.contentType };
    const actual = sniffImageType(bytes);
    if (!actual || actual !== m.contentType) {
      throw new AppError('bad_request', `Photo ${i + 1} is not a ${m.contentType.replace('image/', '').toUpperCase()} image.`);
    }
    return { bytes, contentType: actual };
  });
  const total = photos.reduce((sum, p) => sum + p.bytes.length, 0);
  if (total > SIMULATOR_LIMITS.totalBytes) throw new AppError('payload_too_large', 'The photos together must be at most 20 MB.');

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
    NumMedia: String(photos.length + attachments.length),
    // Twilio's WhatsApp parameters (https://www.twilio.com/docs/messaging/guides/webhook-request).
    ...(input.channel === 'whatsapp' ? { MessageType: location ? 'location' : photos.length + attachments.length > 0 ? 'image' : 'text' } : {}),
    ...(location ? { Latitude: String(location.latitude), Longitude: String(location.longitude) } : {}),
    ...(input.scope ? { [SIMULATOR_SCOPE_PARAM]: input.scope.join(',') } : {}),
  };
  // Not stored anywhere: Loop only reads what they are (their content type).
  attachments.forEach((kind, i) => {
    params[`MediaUrl${photos.length + i}`] = `${SIMULATED_ATTACHMENT_PREFIX}${kind}`;
    params[`MediaContentType${photos.length + i}`] = SIMULATOR_ATTACHMENT_TYPES[kind];
  });
  const keys: string[] = [];
  for (const [i, photo] of photos.entries()) {
    const key = await input.storage.put(photo.bytes);
    keys.push(key);
    params[`MediaUrl${i}`] = `${SIMULATOR_MEDIA_PREFIX}${key}`;
    params[`MediaContentType${i}`] = photo.contentType;
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
