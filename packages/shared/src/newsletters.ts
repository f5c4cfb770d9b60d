import { z } from 'zod';
import { LIMITS } from './constants';
import type { TextCost } from './group-messages';
import { idParamSchema } from './loops';
import { hasNoNul } from './text';

// The pages' paths and the URLs a newsletter may hold live in a module without zod, so that the
// web's editor can use them without loading the schemas (bench/bundle-size).
export { isAllowedNewsletterUrl, MEDIA_PATH, newsletterArchivePath, newsletterPath, personalArchivePath } from './newsletter-paths';

export const NEWSLETTER_KINDS = ['newsletter', 'sneak_peek'] as const;
export type NewsletterKind = (typeof NEWSLETTER_KINDS)[number];
export const NEWSLETTER_STATUSES = ['draft', 'sent'] as const;
export type NewsletterStatus = (typeof NEWSLETTER_STATUSES)[number];
export const NEWSLETTER_WRITERS = ['template', 'openai'] as const;
export type NewsletterWriterName = (typeof NEWSLETTER_WRITERS)[number];

/** /api/loops/{id}/newsletters/{newsletterId}/... */
export const newsletterParamsSchema = z.object({ id: idParamSchema, newsletterId: idParamSchema });

/** PUT /api/loops/{id}/newsletters/{newsletterId}: the edited Markdown of a draft. */
export const saveNewsletterSchema = z.object({
  content: z
    .string({ error: 'Content is required: send {"content": "..."} with the newsletter text' })
    .refine((v) => v.trim() !== '', { message: 'The newsletter cannot be empty' })
    .refine((v) => v.length <= LIMITS.newsletter, {
      message: `The newsletter is too long: at most ${LIMITS.newsletter.toLocaleString('en-US')} characters`,
    })
    .refine(hasNoNul, 'The newsletter must not contain NUL characters'),
});
export type SaveNewsletterInput = z.input<typeof saveNewsletterSchema>;

/** One newsletter or sneak peek as the API answers it. `content` is Markdown. */
export interface Newsletter {
  id: number;
  loopId: number;
  kind: NewsletterKind;
  status: NewsletterStatus;
  /** The public page is /newsletters/{urlId}. */
  urlId: string;
  title: string;
  content: string;
  /** Which writer wrote it; `fellBack` is true when the model failed and the template stood in. */
  writer: NewsletterWriterName;
  fellBack: boolean;
  /** The updates it covers: createdAt >= periodStart (null: since the Loop began) and < periodEnd. */
  periodStart: string | null;
  periodEnd: string;
  createdAt: string;
  sentAt: string | null;
  /** A scheduled issue's send time (decision 0040); null for a draft made by hand. */
  sendAt: string | null;
  /** When the owner or staff approved it to go at `sendAt`; null until then. */
  approvedAt: string | null;
  /** When the owner or staff skipped this issue; a skipped draft is never sent. */
  skippedAt: string | null;
}

/** POST /api/loops/{id}/newsletters/{newsletterId}/move: the scheduled draft's new send time. */
export const moveNewsletterSchema = z.object({
  sendAt: z.iso
    .datetime({ offset: true, error: 'sendAt must be a date and time such as 2026-12-06T18:00:00Z' })
    .transform((v) => new Date(v)),
});
export type MoveNewsletterInput = z.input<typeof moveNewsletterSchema>;

/** How far ahead the owner may move an issue. */
export const MOVE_NEWSLETTER_MAX_DAYS = 30;

/** POST .../approve, .../move and .../skip. */
export interface ScheduledNewsletterAnswer {
  newsletter: Newsletter;
}

/** POST /api/loops/{id}/newsletters/generate (201). */
export interface GenerateNewsletterAnswer {
  newsletter: Newsletter;
}

/** GET /api/loops/{id}/newsletters/{newsletterId}/preview. */
export type NewsletterPreview = Newsletter;

/** PUT /api/loops/{id}/newsletters/{newsletterId}. */
export interface SaveNewsletterAnswer {
  newsletter: Newsletter;
}

/**
 * POST /api/loops/{id}/newsletters/{newsletterId}/render {content}: the editor's live preview.
 * `html` is the whole public page for that (unsaved) Markdown; `media` says what each of its
 * /media/ pictures is (a deleted or foreign one is missing, and the page leaves it out).
 */
export interface RenderNewsletterAnswer {
  html: string;
  /**
   * Each /media/ picture of the Markdown: its kind, a video's poster, and for a photo `preview`, one
   * of its stored smaller sizes (/media/{key}/{width}), which the editor shows instead of the largest.
   */
  media: Record<string, { kind: 'photo' | 'audio' | 'video'; poster: string | null; preview?: string | null }>;
}

/** POST .../send and POST /api/loops/{id}/sneak-peek (201): what was sent and how many texts were queued. */
export interface SendNewsletterAnswer {
  newsletter: Newsletter;
  textsQueued: number;
}
export type SneakPeekAnswer = SendNewsletterAnswer;
/**
 * GET /api/loops/{id}/sneak-peek/preview: the text a sneak peek would send now and what it costs
 * (TextCost). Its link is made when it is sent: `text` shows it as
 * `linkPlaceholder`, of the real link's length, so the segments are the ones that will be counted.
 */
export interface SneakPeekPreview extends TextCost {
  linkPlaceholder: string;
}

/** GET /api/loops/{id}/newsletters: what the Loop's people see of its newsletters and schedule. */
export interface LoopNewsletters {
  /** Sent newsletters and sneak peeks, newest first (the newest 100). */
  newsletters: {
    id: number;
    kind: NewsletterKind;
    title: string;
    sentAt: string;
    urlId: string;
    /** Members' reactions to it (decision 0056), oldest first: first names only, as its page shows them. */
    reactions: { firstName: string; body: string }[];
  }[];
  /** When the next automatic newsletter and the next reminder are due; null when none is scheduled. */
  nextNewsletterAt: string | null;
  nextReminderAt: string | null;
  /** Staff paused the Loop: no reminders or newsletters go out. */
  paused: boolean;
  timeZone: string;
  /** The Loop's review setting (decision 0040). */
  newsletterReview: boolean;
  /**
   * The owner and staff only (null for members): the draft of the coming issue, scheduled first
   * (its sendAt), else the newest draft made by hand; null when there is none.
   */
  upcoming: Newsletter | null;
  /** Updates that came in after `upcoming` was written (owner and staff; else 0): the review page offers to add them. */
  updatesSinceDraft: number;
  /** The owner and staff only (null for members): who a newsletter sent now reaches, by text and by e-mail. */
  audience: NewsletterAudience | null;
}

/** First names of the members a newsletter sent now reaches by text, and by e-mail (who chose both is in both). */
export interface NewsletterAudience {
  byText: string[];
  byEmail: string[];
}
