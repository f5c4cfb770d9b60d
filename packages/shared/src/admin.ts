import { z } from 'zod';
import { ADMIN_SORTS, LIMITS } from './constants';
import { controlCharactersMessage, hasNoControlCharacters } from './text';
import { frequencySchema, type LoopDetail, type LoopSummary } from './loops';

export const ADMIN_PAGE_SIZE = 50;

export const adminLoopsQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(LIMITS.search, `Search must be at most ${LIMITS.search} characters`)
    .refine(hasNoControlCharacters, controlCharactersMessage('Search'))
    .optional()
    .transform((v) => (v ? v : undefined)),
  sort: z.enum(ADMIN_SORTS, { error: 'Sort must be recent, name or members' }).default('recent'),
  page: z.coerce
    .number({ error: 'Page must be a number' })
    .int('Page must be a whole number')
    .min(1, 'Page starts at 1')
    .max(100_000)
    .default(1),
  pageSize: z.coerce
    .number({ error: 'Page size must be a number' })
    .int('Page size must be a whole number')
    .min(1, 'Page size must be from 1 to 200')
    .max(200, 'Page size must be from 1 to 200')
    .default(ADMIN_PAGE_SIZE),
  /** The X-Next-Cursor of the previous page: the next page starts after its last row (and `page` is ignored). */
  cursor: z.string().max(2000, 'The cursor is not valid: start again from the first page').optional(),
});
export type AdminLoopsQuery = z.input<typeof adminLoopsQuerySchema>;

export const adminNewslettersQuerySchema = adminLoopsQuerySchema.pick({ page: true, pageSize: true, cursor: true });

/**
 * The admin Loop detail lists the first members (oldest first) of a large Loop unless asked for
 * all of them with `?members=all`; memberCount always counts every member.
 */
export const ADMIN_DETAIL_MEMBER_LIMIT = 200;
export const adminLoopDetailQuerySchema = z.object({
  members: z.enum(['all'], { error: 'members must be "all" or left out' }).optional(),
});

export const setFrequencySchema = z.object({ frequency: frequencySchema });

export const groupMessageSchema = z.object({
  message: z
    .string({ error: 'Message is required' })
    .trim()
    .min(1, 'Message must not be blank')
    .max(LIMITS.message, `Message must be at most ${LIMITS.message} characters`)
    .refine(hasNoControlCharacters, controlCharactersMessage('Message')),
});

/**
 * Paged lists answer with the array itself (docs/product.md#api-calls: a list of Loops) and say where the next page
 * is in headers: X-Total-Count, and when there is a next page X-Next-Page (its number, for
 * `page=`) and X-Next-Cursor (for `cursor=`: it starts after this page's last row, so a deep page
 * costs what the first does).
 */
export const PAGE_HEADERS = { total: 'x-total-count', nextPage: 'x-next-page', nextCursor: 'x-next-cursor' } as const;

export interface GrowthPoint {
  date: string;
  count: number;
}

export interface AdminStats {
  totalLoops: number;
  totalMembers: number;
  /** Total Updates (docs/product.md#admin-dashboard): the sum of every Loop's updateCount (all Loops, not one page of them). */
  totalUpdates: number;
  loopGrowth: GrowthPoint[];
  memberGrowth: GrowthPoint[];
}

export interface AdminNewsletter {
  id: number;
  loopId: number;
  loopName: string;
  kind: 'newsletter' | 'sneak_peek';
  status: 'draft' | 'sent';
  sentAt: string | null;
  createdAt: string;
  urlId: string;
  content: string;
}

export interface DeliveryCounts {
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
}

export interface AdminLoopNewsletter extends Omit<AdminNewsletter, 'loopName' | 'content'> {
  delivery: DeliveryCounts;
}

export interface AdminLoopDetail extends LoopDetail {
  newsletters: AdminLoopNewsletter[];
}

export type AdminLoop = LoopSummary;
