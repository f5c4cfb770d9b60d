import type { Photo } from './photos';
import { z } from 'zod';
import { LIMITS, MESSAGING_PREFERENCES } from './constants';
import { phoneNumberSchema } from './auth';
import { controlCharactersMessage, hasNoControlCharacters } from './text';

/** The Phone Simulator's API contract (GET/POST /api/simulator/...), and GET /api/config. */

export const SIMULATOR_IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
/**
 * Voice memos and videos a simulated phone sends with their bytes, as Twilio reports their types
 * (https://www.twilio.com/docs/messaging/guides/accepted-mime-types): converted by the same
 * pipeline as a real phone's (decision 0023), which reads what they really are.
 */
export const SIMULATOR_CLIP_TYPES = ['audio/mp4', 'audio/mpeg', 'audio/ogg', 'audio/amr', 'video/mp4', 'video/quicktime', 'video/3gpp'] as const;
export const SIMULATOR_LIMITS = {
  photos: 10,
  photoBytes: 5 * 1024 * 1024,
  /** All photos of one text together, as sent. */
  totalBytes: 20 * 1024 * 1024,
  body: LIMITS.message,
} as const;

/**
 * What else a simulated phone can send, as the content type Twilio would report for it: Loop
 * never keeps these (only photos), so the simulator sends no bytes, just what they are.
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
  .refine((v) => v.length > 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(v), 'A photo is not valid base64 data')
  .refine((v) => Math.floor((v.length * 3) / 4) <= SIMULATOR_LIMITS.photoBytes + 2, 'Each photo must be at most 5 MB');

export const simulatorSendSchema = z
  .object({
    body: z
      .string({ error: 'body must be text' })
      .max(SIMULATOR_LIMITS.body, `A text can be at most ${SIMULATOR_LIMITS.body} characters`)
      .refine(hasNoControlCharacters, controlCharactersMessage('A text'))
      .default(''),
    /** Which app the simulated phone texts from; default: the member's messaging preference. */
    channel: z.enum(MESSAGING_PREFERENCES, { error: 'channel must be "sms" or "whatsapp"' }).optional(),
    media: z
      .array(
        z.object({
          contentType: z.enum([...SIMULATOR_IMAGE_TYPES, ...SIMULATOR_CLIP_TYPES], {
            error: 'Photos must be JPEG, PNG, GIF or WebP images; voice memos and videos MP4, MP3, Ogg, AMR, MOV or 3GP',
          }),
          dataBase64: base64,
        }),
      )
      .max(SIMULATOR_LIMITS.photos, `At most ${SIMULATOR_LIMITS.photos} photos per text`)
      .default([]),
    /** Videos, voice memos, contact cards, PDFs: what they are, without bytes. */
    attachments: z
      .array(z.enum(SIMULATOR_ATTACHMENTS as [SimulatorAttachment, ...SimulatorAttachment[]], { error: 'Attachments are video, voice_memo, contact or pdf' }))
      .max(SIMULATOR_LIMITS.photos, `At most ${SIMULATOR_LIMITS.photos} attachments per text`)
      .default([]),
    /** A WhatsApp location pin. */
    location: z
      .object({
        latitude: z.number({ error: 'latitude must be a number' }).min(-90, 'latitude must be from -90 to 90').max(90, 'latitude must be from -90 to 90'),
        longitude: z.number({ error: 'longitude must be a number' }).min(-180, 'longitude must be from -180 to 180').max(180, 'longitude must be from -180 to 180'),
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
  /** inbound, reply, welcome, reminder, newsletter, sneak_peek, bulk. */
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
  /** The landing page's links: absolute URLs or paths on this site (EXAMPLE_NEWSLETTER_URL, DEMO_VIDEO_URL, GUIDE_URL). */
  links: LandingLinks;
}

export interface LandingLinks {
  exampleNewsletter: string;
  demoVideo: string;
  guide: string;
}
