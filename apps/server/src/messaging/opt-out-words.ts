/**
 * What counts as asking Loop to stop texting (decision 0034). Since April 2025 a person may revoke
 * consent "using any reasonable means", and words like these in reply to a text are reasonable by
 * rule (47 CFR 64.1200(a)(10)). The list is small on purpose: a whole text that is one of these,
 * never a sentence that merely contains one ("We stopped at the lake" is news).
 */

/** Twilio's opt-out words (https://help.twilio.com/articles/223134027; the Advanced Opt-Out defaults). */
export const TWILIO_OPT_OUT_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'] as const;

/**
 * Requests in plain words, compared after `plainWords` (lower case, no accents or apostrophes,
 * anything not a letter a space) and with "please", "thanks" and the like taken off either end.
 */
export const OPT_OUT_PHRASES = [
  'opt me out',
  'i want to opt out',
  'unsubscribe me',
  'i want to unsubscribe',
  'remove me',
  'remove me from this',
  'remove me from this list',
  'remove me from the list',
  'remove me from your list',
  'remove me from loop',
  'remove me from this loop',
  'remove my number',
  'take me off',
  'take me off this list',
  'take me off the list',
  'take me off your list',
  'leave me alone',
  'stop texting me',
  'stop texting',
  'stop texting me now',
  'stop messaging me',
  'stop sending me texts',
  'stop sending me messages',
  'stop sending texts',
  'stop the texts',
  'stop these texts',
  'stop all texts',
  'stop texts',
  'dont text me',
  'do not text me',
  'dont text me anymore',
  'no more texts',
  'no more messages',
] as const;

const POLITE_START = /^(?:(?:please|pls|plz|kindly|hi|hello|hey)\s+)+/;
const POLITE_END = /(?:\s+(?:please|pls|plz|thanks|thank you|thx|ty))+$/;
const TWILIO_WORDS = new Set<string>(TWILIO_OPT_OUT_WORDS);
const PHRASES = new Set<string>(OPT_OUT_PHRASES);

function withoutAccents(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '');
}

/** "Please, STOP texting me!!" -> "please stop texting me". */
export function plainWords(text: string): string {
  return withoutAccents(text)
    .toLowerCase()
    .replace(/['’`]/g, '')
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

/**
 * True when the whole text asks to stop: one of Twilio's words with punctuation, case and spacing
 * stripped ("Stop.", "s t o p", "Opt-out", "stop all"), or one of OPT_OUT_PHRASES.
 */
export function isOptOutRequest(body: string): boolean {
  const letters = withoutAccents(body)
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
  if (TWILIO_WORDS.has(letters)) return true;
  const words = plainWords(body).replace(POLITE_START, '').replace(POLITE_END, '');
  return TWILIO_WORDS.has(words.toUpperCase().replace(/ /g, '')) || PHRASES.has(words);
}

/**
 * True when Twilio's own STOP filtering takes the text: one of its words as the whole text, any
 * case, spaces around ignored ("Only single-word messages will trigger the block",
 * https://help.twilio.com/articles/223134027). Twilio then answers on SMS; Loop must not answer too.
 */
export function isTwilioOptOutWord(body: string): boolean {
  return TWILIO_WORDS.has(body.trim().toUpperCase());
}
