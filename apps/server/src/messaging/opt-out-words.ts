import {
  HELP_PHRASES,
  HELP_WORDS,
  NEGATIONS,
  OPT_OUT_FILLER,
  OPT_OUT_HEADS,
  OPT_OUT_PHRASES_ALL,
  OPT_OUT_SIGNALS,
  OPT_OUT_STRONG_HEADS,
  OPT_OUT_WORDS,
  POLITE_END,
  POLITE_START,
} from './opt-out-languages';

/**
 * What counts as asking Loop to stop texting, or for help (decisions 0034 and 0055). Since April
 * 2025 a person may revoke consent "using any reasonable means", and words like these in reply to
 * a text are reasonable by rule (47 CFR 64.1200(a)(10)). A whole short text must be the request,
 * in any of the languages opt-out-languages.ts lists; a sentence that merely contains a word ("We
 * stopped at the lake", "we can't stop laughing") is news, and one that may or may not ask is held.
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

const TWILIO_WORDS = new Set<string>(TWILIO_OPT_OUT_WORDS);
const WORDS = new Set<string>([...TWILIO_OPT_OUT_WORDS, ...OPT_OUT_WORDS]);
const PHRASES = new Set<string>([...OPT_OUT_PHRASES, ...OPT_OUT_PHRASES_ALL]);
const HELP = new Set<string>(HELP_WORDS);
const HELP_ASKS = new Set<string>(HELP_PHRASES);
const SIGNALS = new Set<string>(OPT_OUT_SIGNALS);
const TAIL = new Set<string>([...OPT_OUT_SIGNALS, ...OPT_OUT_FILLER]);
const asWords = (entries: readonly string[]) => [...new Set(entries)].map((e) => e.split(' ')).sort((a, b) => b.length - a.length);
const STRONG = asWords(OPT_OUT_STRONG_HEADS);
const STRONG_KEYS = new Set(OPT_OUT_STRONG_HEADS);
const HEADS = asWords([...OPT_OUT_STRONG_HEADS, ...OPT_OUT_HEADS]);
const NOT = asWords(NEGATIONS);
const START = asWords(POLITE_START);
const END = asWords(POLITE_END);

/** The longest text a request is read in; past it, a text is news (the unclear rule too). */
const SHORT_WORDS = 12;

/** 🛑 is STOP; a hand or "no entry" alone is unclear (a wave? "me!"?), so it is asked about. */
const STOP_SIGN = /\u{1F6D1}/gu;
const UNCLEAR_EMOJI = /^[\u270B\u{1F91A}\u26D4\u{1F6AB}\u{1F645}]+$/u;
/** Variation selectors, the joiner, skin tones and gender signs: "✋🏽" is "✋", "🙅‍♀️" is "🙅". */
const EMOJI_MODIFIERS = /\uFE0E|\uFE0F|\u200D|\u2640|\u2642|\s|\u{1F3FB}|\u{1F3FC}|\u{1F3FD}|\u{1F3FE}|\u{1F3FF}/gu;

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

const letters = (text: string) =>
  withoutAccents(text)
    .toUpperCase()
    .replace(/[^A-Z]/g, '');
const startsWith = (words: readonly string[], at: number, entry: readonly string[]) => entry.every((w, i) => words[at + i] === w);
const longest = (words: readonly string[], at: number, entries: readonly (readonly string[])[]) =>
  entries.find((entry) => startsWith(words, at, entry));

/** The words with politeness taken off both ends and a word said twice in a row once ("stop stop"). */
function requestWords(body: string): string[] {
  let words = plainWords(body.replace(STOP_SIGN, ' stop '))
    .split(' ')
    .filter((w, i, all) => w !== '' && w !== all[i - 1]);
  for (;;) {
    const front = longest(words, 0, START);
    if (front !== undefined && front.length < words.length) {
      words = words.slice(front.length);
      continue;
    }
    const back = END.find((entry) => startsWith(words, words.length - entry.length, entry));
    if (back === undefined || back.length >= words.length) return words;
    words = words.slice(0, words.length - back.length);
  }
}

/** What a whole text asks of Loop, if anything (decision 0055). */
export type Request = 'opt_out' | 'help' | 'unclear';

/**
 * Whether a text asks to stop, asks for help, or might ask to stop (`unclear`: held, never
 * published, and answered with how to stop), in any of the languages opt-out-languages.ts lists.
 * Null for news. The rules, each with its examples, are decision 0055.
 */
export function readRequest(body: string): Request | null {
  const bare = body.replace(EMOJI_MODIFIERS, '');
  if (bare !== '' && bare.replace(STOP_SIGN, '') === '') return 'opt_out';
  if (UNCLEAR_EMOJI.test(bare)) return 'unclear';
  const whole = letters(body);
  if (WORDS.has(whole)) return 'opt_out';
  if (HELP.has(whole)) return 'help';
  const words = requestWords(body);
  const text = words.join(' ');
  if (PHRASES.has(text) || WORDS.has(letters(text))) return 'opt_out';
  if (HELP_ASKS.has(text) || HELP.has(letters(text))) return 'help';
  return readStop(words);
}

/** A head at the start followed by Loop's words; a head with other words about Loop's texts is unclear. */
function readStop(words: readonly string[]): Request | null {
  if (words.length > SHORT_WORDS) return null;
  const head = longest(words, 0, HEADS);
  if (head !== undefined) {
    const rest = words.slice(head.length);
    const signalled = [...head, ...rest].some((w) => SIGNALS.has(w));
    if (rest.length === 0 || (signalled && rest.every((w) => TAIL.has(w)))) return 'opt_out';
    const strong = STRONG_KEYS.has(head.join(' '));
    if (signalled && (strong || rest.slice(0, 2).some((w) => SIGNALS.has(w)))) return 'unclear';
  }
  // "Ugh, stop texting me": a request after other words, unless negated ("you never stop texting").
  for (let at = 1; at < words.length; at++) {
    const strong = longest(words, at, STRONG);
    if (strong === undefined || NOT.some((n) => startsWith(words, at - n.length, n))) continue;
    if (words.slice(at).some((w) => SIGNALS.has(w))) return 'unclear';
  }
  return null;
}

/**
 * True when the whole text asks to stop: one of the opt-out words with punctuation, case, accents
 * and spacing stripped ("Stop.", "s t o p", "Arrêt", "🛑"), or a short request (readRequest).
 */
export function isOptOutRequest(body: string): boolean {
  return readRequest(body) === 'opt_out';
}

/**
 * True when Twilio's own STOP filtering takes the text: one of its words as the whole text, any
 * case, spaces around ignored ("Only single-word messages will trigger the block",
 * https://help.twilio.com/articles/223134027). Twilio then answers on SMS; Loop must not answer too.
 */
export function isTwilioOptOutWord(body: string): boolean {
  return TWILIO_WORDS.has(body.trim().toUpperCase());
}

/** True when Twilio itself answers the text as HELP on SMS: HELP or INFO alone, any case. */
export function isTwilioHelpWord(body: string): boolean {
  return ['HELP', 'INFO'].includes(body.trim().toUpperCase());
}
