import { listNames } from './text-limits';

/**
 * How long a name may be inside a text Loop sends; longer ones end in "..." (three dots, not "…":
 * one character outside GSM-7 would make the whole SMS UCS-2, 70 characters a segment instead of 160).
 */
export const QUOTE_LIMITS = { loopName: 40, personName: 30, typed: 40 } as const;

/**
 * Text someone else typed (a Loop name, a member's name, a word from a text), made safe to put
 * in a text message: one line, at most `max` characters, double quotes inside turned single, in
 * double quotes. A stranger's words never read as Loop's own, and never run on.
 */
export function quoted(text: string, max: number): string {
  return `"${flattened(text, max).replace(/"/g, "'")}"`;
}

/** Control characters and Unicode line breaks: each run becomes one space. */
// eslint-disable-next-line no-control-regex
const CONTROL_AND_LINE_BREAKS = /[\u0000-\u001f\u007f\u2028\u2029]+/g;

/** A Loop's name as every text shows it: quoted, at most QUOTE_LIMITS.loopName characters. */
export const quotedLoop = (name: string): string => quoted(name, QUOTE_LIMITS.loopName);

/**
 * Words a name could be taken for (decision 0061): the answers and keywords Loop and carriers act
 * on, and words that ask the reader to do something.
 */
const INSTRUCTION_WORDS = new Set([
  ...['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE', 'START', 'UNSTOP', 'YES', 'NO', 'HELP', 'INFO'],
  ...['REPLY', 'TEXT', 'CALL', 'CLICK', 'TAP', 'OPEN', 'SEND', 'PAY', 'VERIFY', 'CONFIRM', 'LINK', 'CODE'],
]);

/**
 * Whether a person's name must be quoted in a text (decision 0061): only when it could be taken for
 * an instruction: anything but letters (any script) with spaces, hyphens, apostrophes and periods
 * (digits, links, colons, quotes...), or a word such as STOP or Reply.
 */
export function nameNeedsQuotes(name: string): boolean {
  if (!/^[\p{L}\p{M}][\p{L}\p{M} .'’-]*$/u.test(name)) return true;
  return name.split(/[\s.'’-]+/).some((word) => INSTRUCTION_WORDS.has(word.toUpperCase()));
}

/** A person's name as every text shows it: at most QUOTE_LIMITS.personName characters, quoted only where needed. */
export const quotedPerson = (name: string): string => {
  const flat = flattened(name, QUOTE_LIMITS.personName);
  return nameNeedsQuotes(flat) ? quoted(name, QUOTE_LIMITS.personName) : flat;
};

/** One line, at most `max` characters (code points). */
export function flattened(text: string, max: number): string {
  const flat = text.replace(CONTROL_AND_LINE_BREAKS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max
    ? `${chars
        .slice(0, max - 3)
        .join('')
        .trimEnd()}...`
    : flat;
}

/** Loop names, each quoted, as a list: "A", "B" and "C"; a long list ends "and 12 others" (listNames). */
export function quotedLoopNames(names: readonly string[], options: Parameters<typeof listNames>[1] = {}): string {
  return listNames(
    names.map((n) => quoted(n, QUOTE_LIMITS.loopName)),
    { maxNameChars: QUOTE_LIMITS.loopName + 2, ...options },
  );
}
