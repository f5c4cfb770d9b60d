import { HOUR_MS } from '../../lib/clock';
import { replies, WHICH_LOOP_CHOICES } from '../../messaging/replies';
import type { ConsentText } from './consent';
import type { InboundText, Reply } from './inbound-text';
import { twilioAnsweredKeyword } from './keywords';
import { nameKey } from './route-text';
import { textFrequency } from '../../messaging/text-frequency';
import type { OpenInvitation, SenderFacts } from './sender-facts';

/** How long a "which Loop?" question waits for a numbered reply; after that a number is just a text. */
export const QUESTION_LIFETIME_MS = 24 * HOUR_MS;

/** An answer to invitations: what to write (handleInbound stores it) and the reply. */
export interface ConsentOutcome {
  kind: 'consent';
  /** YES is one of Twilio's opt-in words: it lifts a STOP as Twilio does. */
  optIn: boolean;
  /** The one membership to confirm (confirmMembership), if any. */
  confirm: number | null;
  /** Ask "which Loop?" with these memberships as choices 1, 2, ... (stored as the open question). */
  ask: number[] | null;
  /** The open question is answered or moot: forget it. */
  clearQuestion: boolean;
  loopId: number | null;
  reply: Reply | undefined;
}

const NOTHING: Omit<ConsentOutcome, 'reply'> = {
  kind: 'consent',
  optIn: false,
  confirm: null,
  ask: null,
  clearQuestion: false,
  loopId: null,
};
const text = (body: string): Reply => ({ body, kind: 'reply' });

/**
 * A YES or JOIN (decision 0033): it confirms one invitation, never several. One named (or the only
 * one open, when its invitation was sent) is confirmed; otherwise Loop asks which, naming who
 * invited them to each. A membership whose invitation never went (withheld) is confirmed only by a
 * YES that names its Loop, or picks it, once the phone is back in (START). Null when a loose "YES words" names no invitation: an
 * ordinary text after all.
 */
export function decideConsent(consent: ConsentText, input: InboundText, facts: SenderFacts): ConsentOutcome | null {
  const open = facts.invitations;
  const key = consent.name === null ? null : nameKey(consent.name);
  const named = key === null ? open : open.filter((i) => nameKey(i.name) === key);
  if (consent.loose && named.length === 0) return null;
  const optIn = consent.word === 'YES' && facts.optedOut;
  const base = { ...NOTHING, optIn };
  if (open.length === 0) {
    const twilioAnswersOptIn = twilioAnsweredKeyword(input);
    // One answer, never two: Twilio's (https://help.twilio.com/articles/223134027).
    if (optIn && twilioAnswersOptIn) {
      return { ...base, reply: input.simulated ? { body: replies.twilioOptedIn(), kind: 'opt_out_notice' } : undefined };
    }
    return { ...base, reply: text(optIn ? replies.optedIn() : replies.nothingToJoin()) };
  }
  if (consent.name !== null && named.length === 0) {
    return {
      ...base,
      reply: text(
        replies.notInvitedTo(
          consent.name,
          open.map((i) => i.name),
        ),
      ),
    };
  }
  // A name shared with a Loop they are in already is as ambiguous as two invitations of one name.
  const active = key === null ? [] : facts.loops.filter((l) => nameKey(l.name) === key);
  if (active.length > 0) {
    return {
      ...base,
      reply: text(replies.sameName([...active.map((l) => ({ name: l.name, ownerName: l.ownerName ?? '' })), ...named])),
    };
  }
  const [only] = named;
  // A withheld invitation needs a YES to its Loop from a phone that is back in (after START).
  const explicit = only !== undefined && (!only.withheld || (consent.name !== null && !facts.optedOut));
  if (only && named.length === 1 && explicit) return confirm(base, only);
  return ask(base, named);
}

/**
 * A number while a "which Loop?" question is open (and the phone has not opted out): the choice
 * it names is confirmed; a number that names none changes nothing and asks again. Null for any
 * other text, and for any number once the question has expired: then it is an ordinary text.
 */
export function answerToQuestion(input: InboundText, facts: SenderFacts): ConsentOutcome | null {
  const question = facts.question;
  if (!question || facts.optedOut || input.at.getTime() >= question.expiresAt.getTime()) return null;
  const number = /^\s*(\d{1,2})\s*[.)!]?\s*$/.exec(input.body)?.[1];
  if (number === undefined) return null;
  const open = new Map(facts.invitations.map((i) => [i.membershipId, i]));
  const offered = question.membershipIds.flatMap((id) => open.get(id) ?? []);
  if (offered.length === 0) return { ...NOTHING, clearQuestion: true, reply: text(replies.nothingToJoin()) };
  const picked = open.get(question.membershipIds[Number(number) - 1] ?? -1);
  if (!picked) return { ...ask(NOTHING, offered), reply: text(replies.whichLoop(offered, true)) };
  return confirm(NOTHING, picked);
}

function confirm(base: Omit<ConsentOutcome, 'reply'>, invitation: OpenInvitation): ConsentOutcome {
  return {
    ...base,
    confirm: invitation.membershipId,
    clearQuestion: true,
    loopId: invitation.loopId,
    reply: text(replies.joined([invitation.name], textFrequency([invitation]))),
  };
}

function ask(base: Omit<ConsentOutcome, 'reply'>, choices: OpenInvitation[]): ConsentOutcome {
  const offered = choices.slice(0, WHICH_LOOP_CHOICES);
  return { ...base, ask: offered.map((c) => c.membershipId), reply: text(replies.whichLoop(offered)) };
}
