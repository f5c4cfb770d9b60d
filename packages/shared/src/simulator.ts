import type { QuietHours } from './quiet-hours';
import type { Photo } from './media';
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
  /** Files (photos, voice memos, videos) of one text. */
  files: 10,
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

export function isSimulatorClipType(type: string): type is SimulatorClipType {
  return (SIMULATOR_CLIP_TYPES as readonly string[]).includes(type);
}

/**
 * Photos, voice memos and videos travel as files, never inside JSON: the message route takes
 * `multipart/form-data` with the text's fields first (body, channel, attachments, latitude,
 * longitude), then each file as a `media` part with its content type, and this header, which no
 * page of another site can add without asking first (decision 0032).
 */
export const SIMULATOR_FILES_HEADER = 'x-loop-upload';
/** The multipart field every photo, voice memo or video is sent under. */
export const SIMULATOR_FILE_FIELD = 'media';

export const simulatorSendSchema = z.object({
  body: z
    .string({ error: 'body must be text' })
    .max(SIMULATOR_LIMITS.body, `A text can be at most ${SIMULATOR_LIMITS.body} characters`)
    .refine(hasNoControlCharacters, controlCharactersMessage('A text'))
    .default(''),
  /** Which app the simulated phone texts from; default: the member's messaging preference. */
  channel: z.enum(MESSAGING_PREFERENCES, { error: 'channel must be "sms" or "whatsapp"' }).optional(),
  /** Files are multipart parts (SIMULATOR_FILE_FIELD), not JSON: a clear 400 rather than a text sent without them. */
  media: z
    .never({ error: 'Photos, voice memos and videos are sent as files: multipart/form-data with a "media" part for each' })
    .optional(),
  /** Videos, voice memos, contact cards, PDFs: what they are, without bytes (Loop answers that no file came). */
  attachments: z
    .array(
      z.enum(SIMULATOR_ATTACHMENTS as [SimulatorAttachment, ...SimulatorAttachment[]], {
        error: 'Attachments are video, voice_memo, contact or pdf',
      }),
    )
    .max(SIMULATOR_LIMITS.files, `At most ${SIMULATOR_LIMITS.files} attachments per text`)
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
});
export type SimulatorSendInput = z.input<typeof simulatorSendSchema>;
export type SimulatorText = z.output<typeof simulatorSendSchema>;

/**
 * A text's fields as multipart form fields, in the order the server reads them (all before the
 * files): body, channel, each attachment, and a location as latitude and longitude.
 */
export function simulatorFormFields(text: Omit<SimulatorSendInput, 'media'>): [name: string, value: string][] {
  return [
    ...(text.body !== undefined ? [['body', text.body] as [string, string]] : []),
    ...(text.channel ? [['channel', text.channel] as [string, string]] : []),
    ...(text.attachments ?? []).map((attachment): [string, string] => ['attachments', attachment]),
    ...(text.location
      ? [
          ['latitude', String(text.location.latitude)] as [string, string],
          ['longitude', String(text.location.longitude)] as [string, string],
        ]
      : []),
  ];
}

/** Refusals both ends word alike. */
export const SIMULATOR_REFUSALS = {
  nothing: 'Type a message or attach a photo',
  tooMany: `At most ${SIMULATOR_LIMITS.files} photos and attachments per text`,
  fileType: 'Photos must be JPEG, PNG, GIF or WebP images; voice memos and videos MP4, MOV, 3GP, M4A, MP3, AMR, Ogg, WAV, FLAC or WebM',
} as const;

export interface SimulatorPhone {
  userId: number;
  firstName: string;
  lastName: string;
  phoneNumber: string;
  messagingPreference: (typeof MESSAGING_PREFERENCES)[number];
  optedOut: boolean;
  /** `pending`: invited to it and not yet said YES (the simulator then offers YES). */
  loops: { id: number; name: string; pending?: boolean }[];
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

/** One e-mail in the Mail Simulator (GET /api/simulator/mail), as Loop sent or received it. */
export interface SimulatorEmail {
  id: number;
  direction: 'inbound' | 'outbound';
  from: string;
  to: string;
  subject: string;
  /** When it was sent (outbound, once sent) or stored: ISO 8601. */
  date: string;
  /** As for texts: queued, sending, sent, failed... (outbound); received, processed... (inbound). */
  status: string;
  /** newsletter, confirm_address, reply_ack (outbound); inbound. */
  kind: string;
  /** Its header lines as sent (List-Unsubscribe, Message-ID...); {} when none were kept. */
  headers: Record<string, string>;
  /** The plain-text part. */
  text: string;
  /** The HTML part; null when it had none. */
  html: string | null;
}

export interface ApiConfig {
  messagingProvider: 'twilio' | 'simulator';
  /** How Loop sends e-mail: over SMTP_URL, or kept for the Mail Simulator when it is unset. */
  mailTransport: 'smtp' | 'simulator';
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
