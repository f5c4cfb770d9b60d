import type { QuietHours } from './quiet-hours';
import type { Photo } from './photos';
import { z } from 'zod';
import { LIMITS, MESSAGING_PREFERENCES } from './constants';
import { phoneNumberSchema } from './auth';
import { controlCharactersMessage, hasNoControlCharacters } from './text';

/** The Phone Simulator's API contract (GET/POST /api/simulator/...), and GET /api/config. */

export const SIMULATOR_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
/**
 * Voice memos and videos a simulated phone can attach, as the content type Twilio reports for
 * them (https://www.twilio.com/docs/messaging/guides/accepted-mime-types), plus WebM, which a
 * browser's MediaRecorder makes. The server reads what the bytes really are (decision 0023).
 */
export const SIMULATOR_CLIP_TYPES = [
  'audio/mp4',
  'audio/mpeg',
  'audio/ogg',
  'audio/amr',
  'audio/aac',
  'audio/wav',
  'audio/flac',
  'audio/webm',
  'video/mp4',
  'video/quicktime',
  'video/3gpp',
  'video/webm',
] as const;
export type SimulatorClipType = (typeof SIMULATOR_CLIP_TYPES)[number];
export const SIMULATOR_LIMITS = {
  photos: 10,
  photoBytes: 5 * 1024 * 1024,
  /**
   * The largest voice memo or video: WhatsApp's 16 MB. The server holds each channel to its own
   * limit in config.ts (MMS_MEDIA_MAX_BYTES, WHATSAPP_MEDIA_MAX_BYTES), as Twilio would.
   */
  clipBytes: 16 * 1024 * 1024,
  /** All photos, voice memos and videos of one text together, as sent. */
  totalBytes: 20 * 1024 * 1024,
  body: LIMITS.message,
} as const;

/**
 * What else a simulated phone can send without a file, as the content type Twilio would report
 * for it: only what they are. (A real voice memo or video goes in `media`, with its bytes.)
 */
export const SIMULATOR_ATTACHMENT_TYPES = {
  video: 'video/mp4',
  voice_memo: 'audio/ogg',
  contact: 'text/vcard',
  pdf: 'application/pdf',
} as const;
export type SimulatorAttachment = keyof typeof SIMULATOR_ATTACHMENT_TYPES;
export const SIMULATOR_ATTACHMENTS = Object.keys(SIMULATOR_ATTACHMENT_TYPES) as SimulatorAttachment[];

export const simulatorPhoneParamsSchema = z.object({ phone: phoneNumberSchema });

const base64 = z
  .string({ error: 'Each photo needs dataBase64' })
  .transform((v) => v.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, ''))
  .refine((v) => v.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(v), 'A photo is not valid base64 data');

export function isSimulatorClipType(type: string): type is SimulatorClipType {
  return (SIMULATOR_CLIP_TYPES as readonly string[]).includes(type);
}

/** A photo, voice memo or video, its bytes in base64: photos up to 5 MB, the others up to 16 MB. */
const mediaItem = z
  .object({
    contentType: z.enum([...SIMULATOR_IMAGE_TYPES, ...SIMULATOR_CLIP_TYPES], {
      error: 'Photos must be JPEG, PNG, GIF or WebP images; voice memos and videos MP4, MOV, 3GP, M4A, MP3, AMR, Ogg, WAV, FLAC or WebM',
    }),
    dataBase64: base64,
  })
  .superRefine((item, ctx) => {
    const bytes = Math.floor((item.dataBase64.length * 3) / 4);
    const clip = isSimulatorClipType(item.contentType);
    if (bytes > (clip ? SIMULATOR_LIMITS.clipBytes : SIMULATOR_LIMITS.photoBytes) + 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['dataBase64'],
        message: clip ? 'Each voice memo or video must be at most 16 MB' : 'Each photo must be at most 5 MB',
      });
    }
  });

export const simulatorSendSchema = z
  .object({
    body: z
      .string({ error: 'body must be text' })
      .max(SIMULATOR_LIMITS.body, `A text can be at most ${SIMULATOR_LIMITS.body} characters`)
      .refine(hasNoControlCharacters, controlCharactersMessage('A text'))
      .default(''),
    /** Which app the simulated phone texts from; default: the member's messaging preference. */
    channel: z.enum(MESSAGING_PREFERENCES, { error: 'channel must be "sms" or "whatsapp"' }).optional(),
    /** Photos, voice memos and videos, with their bytes. */
    media: z.array(mediaItem).max(SIMULATOR_LIMITS.photos, `At most ${SIMULATOR_LIMITS.photos} photos per text`).default([]),
    /** Videos, voice memos, contact cards, PDFs: what they are, without bytes (Loop answers that no file came). */
    attachments: z
      .array(
        z.enum(SIMULATOR_ATTACHMENTS as [SimulatorAttachment, ...SimulatorAttachment[]], {
          error: 'Attachments are video, voice_memo, contact or pdf',
        }),
      )
      .max(SIMULATOR_LIMITS.photos, `At most ${SIMULATOR_LIMITS.photos} attachments per text`)
      .default([]),
    /** A WhatsApp location pin. */
    location: z
      .object({
        latitude: z
          .number({ error: 'latitude must be a number' })
          .min(-90, 'latitude must be from -90 to 90')
          .max(90, 'latitude must be from -90 to 90'),
        longitude: z
          .number({ error: 'longitude must be a number' })
          .min(-180, 'longitude must be from -180 to 180')
          .max(180, 'longitude must be from -180 to 180'),
      })
      .optional(),
  })
  .refine((v) => v.body.trim() !== '' || v.media.length > 0 || v.attachments.length > 0 || v.location !== undefined, {
    message: 'Type a message or attach a photo',
    path: ['body'],
  })
  .refine((v) => v.media.length + v.attachments.length <= SIMULATOR_LIMITS.photos, {
    message: `At most ${SIMULATOR_LIMITS.photos} photos and attachments per text`,
    path: ['attachments'],
  });
export type SimulatorSendInput = z.input<typeof simulatorSendSchema>;

export interface SimulatorPhone {
  userId: number;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  messagingPreference: (typeof MESSAGING_PREFERENCES)[number];
  optedOut: boolean;
  loops: { id: number; name: string }[];
}

export interface SimulatorMessage {
  id: number;
  direction: 'inbound' | 'outbound';
  channel: 'sms' | 'whatsapp';
  /** inbound, reply, welcome, reminder, newsletter, sneak_peek, group_message. */
  kind: string;
  body: string;
  /** Paths (/media/...) or absolute URLs of photos. */
  mediaUrls: string[];
  /** Those of its photos that still exist, with their sizes. */
  photos: Photo[];
  /** Inbound: what else it carried, in words ("Video", "Location"...), which Loop does not keep. */
  attachments: string[];
  /** Inbound: received, processing, processed, ignored, failed. Outbound: queued, sending, sent, delivered, undelivered, failed. */
  status: string;
  error: string | null;
  createdAt: string;
}

export interface ApiConfig {
  messagingProvider: 'twilio' | 'simulator';
  /** QUIET_HOURS: no texts start then in each recipient's own time; null when off. Reminder times keep clear of it. */
  quietHours: QuietHours | null;
  /** The landing page's links: absolute URLs or paths on this site (EXAMPLE_NEWSLETTER_URL, DEMO_VIDEO_URL, GUIDE_URL). */
  links: LandingLinks;
}

export interface LandingLinks {
  exampleNewsletter: string;
  demoVideo: string;
  guide: string;
}
