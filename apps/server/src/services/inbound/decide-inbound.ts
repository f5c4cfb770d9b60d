import { isTwilioHelpWord, isTwilioOptOutWord, readRequest } from '../../messaging/opt-out-words';
import { replies } from '../../messaging/replies';
import { parseConsent } from './consent';
import { answerToQuestion, decideConsent, type ConsentOutcome } from './decide-consent';
import { erasureCodeHash } from './erasure-code';
import type { InboundText, Reply } from './inbound-text';
import { erasureCodeIn, parseKeyword, phonePinIn, twilioAnsweredKeyword, type Keyword } from './keywords';
import { reactedIssues } from './reaction-words';
import { routeText, type LoopRef } from './route-text';
import type { SenderFacts } from './sender-facts';

/** Why a text that might ask to stop was kept unshared, for staff (decision 0055). */
export const UNCLEAR_HELD = 'Not shared: it might ask to stop texts; the sender was asked to reply STOP or send it again.';

/** What a text comes to. Only `share` stores anything in a Loop. */
export type Outcome =
  /** Stop texting this phone; the confirmation unless someone answered already. */
  | { kind: 'opt_out'; reason: string; reply: Reply | undefined; note?: string }
  | { kind: 'opt_in'; reply: Reply | undefined }
  /** HELP, LOOPS: an answer, nothing changes. */
  | { kind: 'answer'; reply: Reply | undefined }
  /** Only praise or emoji, within two days of a newsletter: kept as a reaction to it (decision 0056). */
  | { kind: 'reaction'; userId: number; firstName: string; loops: LoopRef[]; body: string }
  /** From a person invited but in no Loop yet: kept until they answer YES, then it goes to that Loop. */
  | { kind: 'held_for_yes'; reply: Reply }
  /** Might ask to stop (decision 0055): held, never shared, answered with how to stop (once a day). */
  | { kind: 'unclear'; reply: Reply }
  | ConsentOutcome
  /** From a phone that opted out: kept, shared with no one (decision 0014). */
  | { kind: 'opted_out' }
  /** A tap on a template's quick-reply button answers our text: it opens the window, shares nothing. */
  | { kind: 'button' }
  /** Shared with no one: the reply says why (a text); `note` says it to staff (an e-mail, unanswered). */
  | { kind: 'nowhere'; reply: string | undefined; note?: string }
  /** A member without an account texted DELETE: a code goes back, which confirms it (decision 0045). */
  | { kind: 'erase_ask'; userId: number }
  /** DELETE with the right code in time: the member and all they sent are deleted. */
  | { kind: 'erase'; userId: number; reply: Reply }
  /** "PIN 4821" from a member's phone: the phone line's PIN (decision 0067); the text keeps no digits. */
  | { kind: 'set_pin'; userId: number; pin: string; reply: Reply }
  | {
      kind: 'share';
      userId: number;
      firstName: string;
      loops: LoopRef[];
      content: string;
      /** A WhatsApp location pin: Loop cannot share it, and says so. */
      location: boolean;
      /** Carries photos, clips, files or a location: they are fetched before the reply is known (settleShare). */
      withMedia: boolean;
    };

/**
 * What a member's message does, decided from the message and its sender's facts alone, with no
 * reads or writes: the one decision every channel's inbound applies (applyOutcome, single or a
 * batch at a time), so they agree by construction. For a text, in order: a YES (decision 0033),
 * a keyword (an opt-out or HELP in any reasonable words and languages, decisions 0034 and 0055),
 * a number answering an open "which Loop?" question, a phone that opted out, a button tap, a text
 * that might ask to stop (held, decision 0055), then routing to the sender's Loops: a reaction to
 * a recent newsletter (decision 0056) or an update. An e-mail reply: decideEmailReply.
 */
export function decideInbound(text: InboundText, facts: SenderFacts): Outcome {
  if (text.channel === 'email') return decideEmailReply(text, facts);
  const { params } = text;
  const keyword = parseKeyword(text.body, params.OptOutType);
  const consent = keyword === null || keyword === 'opt_in' ? parseConsent(text.body) : null;
  const answered = consent ? decideConsent(consent, text, facts) : null;
  if (answered) return answered;
  if (keyword) return decideKeyword(keyword, text, facts);
  const choice = answerToQuestion(text, facts);
  if (choice) return choice;
  if (facts.optedOut) return { kind: 'opted_out' };
  if (params.MessageType === 'button') return { kind: 'button' };
  const routing = routeForSender(text.body, facts.user, facts.loops);
  // Invited, not yet in: the text waits for their YES, and they are told what they were invited to.
  if (routing.kind === 'nowhere' && facts.loops.length === 0 && facts.invitations.length > 0) {
    return { kind: 'held_for_yes', reply: { body: replies.heldForYes(facts.invitations), kind: 'reply' } };
  }
  if (routing.kind === 'nowhere') return routing;
  return decideRouted(text, routing);
}

/**
 * A reply to a member's e-mail address (decision 0050), whose facts hold the one Loop the address
 * names: read by the words a text is read by (decision 0055) and in a text's order, but none of
 * what only a text can be (YES, START, LOOPS, DELETE, a numbered answer, a button). One that asks
 * to stop stops e-mails and texts alike and is never shared, with no confirmation; HELP is
 * answered; a phone that said STOP shares nothing (decision 0014); a membership no longer active
 * takes nothing; then as a text.
 */
function decideEmailReply(text: InboundText, facts: SenderFacts): Outcome {
  const request = readRequest(text.body);
  if (request === 'opt_out') {
    const reason = `e-mail: ${text.body.trim().toUpperCase().slice(0, 52)}`;
    return { kind: 'opt_out', reason, reply: undefined, note: 'Not shared: it asks to stop (e-mails and texts stopped).' };
  }
  if (request === 'help') return { kind: 'answer', reply: { body: replies.help(text.supportContact), kind: 'reply' } };
  if (facts.optedOut) return { kind: 'opted_out' };
  const routing = routeForSender(text.body, facts.user, facts.loops);
  if (routing.kind === 'nowhere') return { kind: 'nowhere', reply: undefined, note: 'Not shared: this membership is not active.' };
  return decideRouted(text, routing);
}

/** A message that reaches some of its sender's Loops: held as unclear, a reaction or an update. */
function decideRouted(text: InboundText, routing: { user: { id: number; firstName: string }; loops: LoopRef[]; content: string }): Outcome {
  const { params } = text;
  if (readRequest(text.body) === 'unclear') return { kind: 'unclear', reply: { body: replies.mightStop(), kind: 'reply' } };
  const attachments = text.attachments ?? (Number.parseInt(params.NumMedia ?? '0', 10) || 0);
  const location = params.MessageType === 'location' || (params.Latitude !== undefined && params.Longitude !== undefined);
  const reacted = attachments === 0 && !location ? reactedIssues(routing.loops, routing.content, text.at) : [];
  if (reacted.length > 0) {
    return { kind: 'reaction', userId: routing.user.id, firstName: routing.user.firstName, loops: reacted, body: routing.content };
  }
  return {
    kind: 'share',
    userId: routing.user.id,
    firstName: routing.user.firstName,
    loops: routing.loops,
    content: routing.content,
    location,
    withMedia: attachments !== 0 || location || params.Latitude !== undefined || params.Longitude !== undefined,
  };
}

/** Whether the outcome changes the sender's facts: their later texts must read them again. */
export function changesFacts(outcome: Outcome): boolean {
  return (
    outcome.kind === 'opt_out' ||
    outcome.kind === 'opt_in' ||
    outcome.kind === 'consent' ||
    outcome.kind === 'erase_ask' ||
    outcome.kind === 'erase'
  );
}

/**
 * STOP / START / HELP / LOOPS, answered so that a person gets one answer, never two
 * (https://help.twilio.com/articles/223134027):
 *
 * - STOP tagged by Advanced Opt-Out (`OptOutType`): Twilio answered, on SMS and WhatsApp alike.
 * - SMS: Twilio answers its own opt-out words always, START and HELP unless
 *   TWILIO_KEYWORD_REPLIES=loop (twilioAnsweredKeyword). The Phone Simulator sends Twilio's answers
 *   in its place.
 * - An opt-out in other words ("Stop.", "Please stop texting me", "PARAR") and every keyword on
 *   WhatsApp: nobody else answers, so Loop confirms, once (not when the phone had opted out already).
 */
function decideKeyword(keyword: Keyword, text: InboundText, facts: SenderFacts): Outcome {
  const sms = text.channel === 'sms';
  const optOutType = text.params.OptOutType?.trim() ?? '';
  const twilioAnswers = twilioAnsweredKeyword(text);
  const asTwilio = (body: string): Reply | undefined => (text.simulated ? { body, kind: 'opt_out_notice' } : undefined);
  switch (keyword) {
    case 'opt_out': {
      const reason = optOutType !== '' ? `OptOutType=${optOutType}` : text.body.trim().toUpperCase().slice(0, 60);
      const reply: Reply | undefined =
        optOutType !== ''
          ? undefined
          : sms && isTwilioOptOutWord(text.body)
            ? asTwilio(replies.optedOut())
            : facts.optedOut
              ? undefined
              : { body: replies.loopOptedOut(), kind: 'opt_out_notice' };
      return { kind: 'opt_out', reason, reply };
    }
    case 'opt_in': {
      // Back in, with invitations that still wait: say so, since nothing else will ask again.
      const waiting = facts.invitations.map((i) => i.name);
      const invitations = waiting.length > 0 ? [replies.invitationsWaiting(waiting)] : [];
      if (sms && twilioAnswers) {
        // Twilio answered START; only the waiting invitations are Loop's to mention.
        if (invitations.length > 0) return { kind: 'opt_in', reply: { body: invitations.join(' '), kind: 'reply' } };
        return { kind: 'opt_in', reply: asTwilio(replies.twilioOptedIn()) };
      }
      return { kind: 'opt_in', reply: { body: [replies.optedIn(), ...invitations].join(' '), kind: 'reply' } };
    }
    case 'help': {
      // Twilio's answer is the operator's: README's Twilio section has them set it to this same
      // text (its default names no brand and no contact, which CTIA 5.1.3 asks of HELP).
      // Twilio takes HELP and INFO alone; "help me please" or "AYUDA" is Loop's to answer.
      const twilioHelp = optOutType !== '' || isTwilioHelpWord(text.body);
      if (sms && twilioAnswers && twilioHelp) return { kind: 'answer', reply: asTwilio(replies.help(text.supportContact)) };
      return { kind: 'answer', reply: { body: replies.help(text.supportContact), kind: 'reply' } };
    }
    case 'erase':
      return decideErasure(text, facts);
    case 'pin': {
      const pin = phonePinIn(text.body);
      if (facts.user === undefined || pin === null) return { kind: 'answer', reply: { body: replies.joinHelp(), kind: 'reply' } };
      return { kind: 'set_pin', userId: facts.user.id, pin, reply: { body: replies.phonePinSet(), kind: 'reply' } };
    }
    case 'loops': {
      const names = facts.loops.map((loop) => loop.name);
      const body = facts.user === undefined || names.length === 0 ? replies.joinHelp() : replies.yourLoops(names);
      return { kind: 'answer', reply: { body, kind: 'reply' } };
    }
  }
}

/**
 * DELETE (decision 0045). Only a member without an account erases by text (an account holder
 * deletes on the website, where the password is asked), and only with the six-digit code the
 * first DELETE texted back, within ERASURE_CODE_MINUTES: a stray DELETE, or one from a spoofed
 * sender who never sees the code, deletes nothing. A wrong or late code asks again, with a new
 * code, so guessing gets nowhere.
 */
function decideErasure(text: InboundText, facts: SenderFacts): Outcome {
  const user = facts.user;
  if (user === undefined) return { kind: 'answer', reply: { body: replies.erasureNothing(), kind: 'reply' } };
  if (user.passwordHash !== null) return { kind: 'answer', reply: { body: replies.erasureOnWebsite(), kind: 'reply' } };
  const code = erasureCodeIn(text.body);
  const open = facts.erasure;
  const confirmed =
    code !== null &&
    open !== null &&
    open.expiresAt.getTime() > text.at.getTime() &&
    open.codeHash === erasureCodeHash(user.phoneNumber, code, text.codeSecret);
  // The last text: it reaches the phone though it is now opted out, as a STOP confirmation does.
  if (confirmed) return { kind: 'erase', userId: user.id, reply: { body: replies.erased(), kind: 'opt_out_notice' } };
  return { kind: 'erase_ask', userId: user.id };
}

/**
 * Which of the sender's Loops get a text, or the reply saying why none does: an unknown phone
 * or one in no Loop, a name that fits none of its Loops or several.
 */
export function routeForSender<User>(
  body: string,
  user: User | undefined,
  userLoops: LoopRef[],
): { kind: 'loops'; user: User; loops: LoopRef[]; content: string } | { kind: 'nowhere'; reply: string } {
  if (user === undefined || userLoops.length === 0) return { kind: 'nowhere', reply: replies.joinHelp() };
  const routing = routeText(body, userLoops);
  if (routing.kind === 'unknown_name')
    return {
      kind: 'nowhere',
      reply: replies.unknownLoop(
        routing.name,
        userLoops.map((l) => l.name),
      ),
    };
  if (routing.kind === 'same_name') {
    return { kind: 'nowhere', reply: replies.sameName(routing.loops.map((l) => ({ name: l.name, ownerName: l.ownerName ?? '' }))) };
  }
  return { ...routing, user };
}
