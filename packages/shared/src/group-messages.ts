import { z } from 'zod';
import { groupMessageSchema } from './admin';
import { idParamSchema } from './loops';

/** How far ahead a group message may be scheduled. */
export const GROUP_MESSAGE_MAX_DAYS_AHEAD = 30;

/**
 * POST /api/loops/{id}/group-messages: the message, and when to send it (left out: now). The
 * server refuses a time in the past or more than GROUP_MESSAGE_MAX_DAYS_AHEAD days ahead.
 */
export const sendGroupMessageSchema = groupMessageSchema.extend({
  sendAt: z.iso.datetime({ offset: true, error: 'Send time must be a date and time, like 2026-12-01T09:00:00Z' }).optional(),
});
export type SendGroupMessageInput = z.infer<typeof sendGroupMessageSchema>;

export const groupMessageParamsSchema = z.object({ id: idParamSchema, messageId: idParamSchema });

/**
 * What a text to a whole Loop will be and cost, shown before it is sent (decision 0042): the exact
 * text, who the one rule for who may be texted lets it reach now, the SMS segments of one text,
 * and recipients x segments.
 */
export interface TextCost {
  text: string;
  recipients: number;
  recipientNames: string[];
  /** Members it will not reach now: waiting for their YES, opted out, or unable to receive texts. */
  notReached: number;
  segments: number;
  /** The characters that made each text UCS-2 (an emoji): 70 characters a segment instead of 160. Empty: none. */
  ucs2Characters: string[];
  texts: number;
}

export type GroupMessageStatus = 'scheduled' | 'sent' | 'cancelled';

/** One group message of a Loop, with its delivery counted from its texts. */
export interface GroupMessageSummary {
  id: number;
  message: string;
  senderName: string;
  status: GroupMessageStatus;
  sendAt: string;
  sentAt: string | null;
  textsQueued: number;
  /** Its texts by state: still to go (queued or sending), sent, delivered, failed (failed or undelivered). */
  delivery: { waiting: number; sent: number; delivered: number; failed: number };
}

export interface SentGroupMessageAnswer {
  groupMessage: GroupMessageSummary;
  /** Texts queued now; 0 for a scheduled one. */
  queued: number;
}
