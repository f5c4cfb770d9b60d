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
}

/**
 * What the owner sees for one member. A refusal says most (declined), then an invitation that never
 * went (not invited, whatever the phone did since), opting out, failing texts, then the invitation.
 */
export function memberState(
  facts: MembershipFacts,
  now: Date,
): { state: MemberState; invitedAt: string | null; resendAt: string | null; lastError: string | null } {
  const pending = facts.status === 'pending';
  const expired = pending && (facts.invitedAt?.getTime() ?? 0) + INVITATION_LIFETIME_MS <= now.getTime();
  const state: MemberState =
    facts.status === 'declined'
      ? 'declined'
      : pending && facts.invitationWithheld
        ? 'not_invited'
        : facts.optedOut
          ? 'opted_out'
          : facts.lastFailure !== null
            ? 'failing'
            : expired
              ? 'expired'
              : pending
                ? 'pending'
                : 'active';
  const resendAt = pending && !facts.optedOut ? new Date((facts.invitedAt?.getTime() ?? 0) + DAY_MS).toISOString() : null;
  return {
    state,
    invitedAt: pending ? (facts.invitedAt?.toISOString() ?? null) : null,
    resendAt,
    lastError: state === 'failing' ? deliveryErrorInWords(facts.lastFailure ?? '') : null,
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
};

/** A delivery error as a person reads it: the known Twilio codes in words, else the error itself. */
export function deliveryErrorInWords(error: string): string {
  const code = /\b(2\d{4}|3\d{4}|6\d{4})\b/.exec(error)?.[1];
  const words = code ? TWILIO_ERRORS[code] : undefined;
  if (words) return words;
  const text = error.replace(/\s*\(attempt \d+ of \d+\)$/, '').trim();
  return text === '' ? 'The last text to this member could not be delivered.' : `The last text could not be delivered: ${text}`;
}
