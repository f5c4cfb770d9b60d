import type { DbOrTx } from '../../db/client';
import { listConfirmableLoops } from '../memberships/confirm-pending-memberships';
import type { Keyword } from './keywords';
import { optInPhone, optOutPhone } from '../../messaging/opt-outs';
import type { TextKind } from '../../messaging/outbox';
import { replies } from '../../messaging/replies';
import { activeLoopsOf } from './sender-facts';

export interface KeywordInput {
  keyword: Keyword;
  phone: string | null;
  userId: number | null;
  word: string;
  /** Set when Twilio's Advanced Opt-Out handled the word (and answered it). */
  optOutType: string | undefined;
  channel: 'sms' | 'whatsapp';
  /** The Phone Simulator plays Twilio: it sends the answers Twilio would send on SMS. */
  simulated: boolean;
  /** TWILIO_KEYWORD_REPLIES: who answers START and HELP on SMS. */
  keywordReplies: 'twilio' | 'loop';
  /** A simulator viewer playing someone else's phone: the only Loops LOOPS may name (decision 0031). */
  scope?: readonly number[] | null;
  now: Date;
}

/**
 * Applies STOP / START / HELP / LOOPS and returns the reply to send, if any, so that a person
 * gets one answer, never two (https://help.twilio.com/articles/223134027):
 *
 * - SMS: Twilio answers STOP always, and START and HELP too unless TWILIO_KEYWORD_REPLIES=loop
 *   (or Advanced Opt-Out sent OptOutType: it answered). Loop stays quiet for those; the Phone
 *   Simulator sends Twilio's answers in its place.
 * - WhatsApp: Twilio does not handle keywords, so Loop answers all of them, STOP included.
 */
export async function handleKeyword(tx: DbOrTx, input: KeywordInput): Promise<{ body: string; kind: TextKind } | null> {
  const sms = input.channel === 'sms';
  const twilioAnswers = (input.optOutType !== undefined && input.optOutType !== '') || (sms && input.keywordReplies === 'twilio');
  /** What Twilio would answer, sent by the simulator in Twilio's place. */
  const asTwilio = (body: string) => (input.simulated ? { body, kind: 'opt_out_notice' as const } : null);
  switch (input.keyword) {
    case 'opt_out':
      if (input.phone) {
        const reason = input.optOutType ? `OptOutType=${input.optOutType}` : input.word.trim().toUpperCase();
        await optOutPhone(tx, input.phone, reason, input.now);
      }
      // Twilio confirms STOP on SMS itself; on WhatsApp nobody would, so Loop does.
      return sms ? asTwilio(replies.optedOut()) : { body: replies.optedOut(), kind: 'opt_out_notice' };
    case 'opt_in': {
      if (input.phone) await optInPhone(tx, input.phone);
      // Back in, with invitations that still wait: say so, since nothing else will ask again.
      const waiting = input.userId === null ? [] : await listConfirmableLoops(tx, input.userId, input.now);
      const invitations = waiting.length > 0 ? [replies.invitationsWaiting(waiting.map((l) => l.name))] : [];
      if (sms && twilioAnswers) {
        // Twilio answered START; only the waiting invitations are Loop's to mention.
        if (invitations.length > 0) return { body: invitations.join(' '), kind: 'reply' };
        return asTwilio(replies.twilioOptedIn());
      }
      return { body: [replies.optedIn(), ...invitations].join(' '), kind: 'reply' };
    }
    case 'help':
      if (sms && twilioAnswers) return asTwilio(replies.twilioHelp());
      return { body: replies.help(), kind: 'reply' };
    case 'loops': {
      if (input.userId === null) return { body: replies.joinHelp(), kind: 'reply' };
      const scope = input.scope ? [...input.scope] : null;
      const names = ((await activeLoopsOf(tx, [input.userId], scope)).get(input.userId) ?? []).map((loop) => loop.name);
      return { body: names.length > 0 ? replies.yourLoops(names) : replies.joinHelp(), kind: 'reply' };
    }
  }
}
