import type { MemberState } from '@loop/shared/loops';
import { DAY_MS } from '../../lib/clock';
import { INVITATION_LIFETIME_MS } from './membership-is-active';

export interface MembershipFacts {
  status: 'pending' | 'active' | 'declined';
  invitedAt: Date | null;
  /** No invitation text went out: the phone had opted out when it was added (decision 0033). */
  invitationWithheld: boolean;
  optedOut: boolean;
  /** The error of the last text to this phone, when that text failed; else null. */
  lastFailure: string | null;
  /** The Twilio error that marked the phone unable to receive texts (undeliverable_phones), else null. */
  undeliverableCode?: number | null;
  /** Twilio said the number has no WhatsApp (63024) and the person now gets SMS. */
  whatsappRefused?: boolean;
}

/** Why a phone cannot receive texts, as the owner reads it: "Can't receive texts (landline)". */
const UNDELIVERABLE_WORDS: Record<number, string> = {
  30005: "Can't receive texts (unknown number)",
  30006: "Can't receive texts (landline)",
  21614: "Can't receive texts (not a mobile number)",
};

/**
 * What the owner sees for one member. A refusal says most (declined), then an invitation that never
 * went (not invited, whatever the phone did since), opting out, a number that cannot receive texts,
 * failing texts, then the invitation.
 */
export function memberState(
  facts: MembershipFacts,
  now: Date,
): { state: MemberState; invitedAt: string | null; resendAt: string | null; lastError: string | null; deliveryNote: string | null } {
  const pending = facts.status === 'pending';
  const undeliverable = (facts.undeliverableCode ?? null) !== null;
  const expired = pending && (facts.invitedAt?.getTime() ?? 0) + INVITATION_LIFETIME_MS <= now.getTime();
  const state: MemberState =
    facts.status === 'declined'
      ? 'declined'
      : pending && facts.invitationWithheld
        ? 'not_invited'
        : facts.optedOut
          ? 'opted_out'
          : undeliverable
            ? 'undeliverable'
            : facts.lastFailure !== null
              ? 'failing'
              : expired
                ? 'expired'
                : pending
                  ? 'pending'
                  : 'active';
  const resendAt = pending && !facts.optedOut && !undeliverable ? new Date((facts.invitedAt?.getTime() ?? 0) + DAY_MS).toISOString() : null;
  return {
    state,
    invitedAt: pending ? (facts.invitedAt?.toISOString() ?? null) : null,
    resendAt,
    lastError:
      state === 'undeliverable'
        ? (UNDELIVERABLE_WORDS[facts.undeliverableCode ?? 0] ?? "Can't receive texts")
        : state === 'failing'
          ? deliveryErrorInWords(facts.lastFailure ?? '')
          : null,
    deliveryNote: facts.whatsappRefused ? 'WhatsApp says this number has no WhatsApp account, so Loop texts it by SMS.' : null,
  };
}

// Twilio's error dictionary (https://www.twilio.com/docs/api/errors): the codes members' phones cause.
const TWILIO_ERRORS: Record<string, string> = {
  '21211': 'This is not a valid phone number.',
  '21408': 'Texts to this country are not enabled for Loop.',
  '21610': 'This number replied STOP to Loop.',
  '21612': 'This number cannot receive texts from Loop.',
  '21614': 'This number is not a mobile phone and cannot receive texts.',
  '30003': 'The phone is switched off or out of reach.',
  '30004': 'The phone blocks texts from Loop.',
  '30005': 'This number does not exist or is no longer in use.',
  '30006': 'This is a landline or cannot receive texts.',
  '30007': "The phone company filtered Loop's text as spam.",
  '30008': 'The phone company could not deliver the text (unknown error).',
  '63016': 'WhatsApp refused the text: the member has not written in the last 24 hours.',
  '63024': 'This number has no WhatsApp account.',
};

/** A delivery error as a person reads it: the known Twilio codes in words, else the error itself. */
export function deliveryErrorInWords(error: string): string {
  const code = /\b(2\d{4}|3\d{4}|6\d{4})\b/.exec(error)?.[1];
  const words = code ? TWILIO_ERRORS[code] : undefined;
  if (words) return words;
  const text = error.replace(/\s*\(attempt \d+ of \d+\)$/, '').trim();
  return text === '' ? 'The last text to this member could not be delivered.' : `The last text could not be delivered: ${text}`;
}
