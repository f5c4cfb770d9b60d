import { listNames } from './text-limits';

/** How long a name may be inside a text Loop sends; longer ones end in "…". */
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

/** One line, at most `max` characters (code points), for a greeting's first name. */
export function flattened(text: string, max: number): string {
  const flat = text.replace(CONTROL_AND_LINE_BREAKS, ' ').replace(/\s+/g, ' ').trim();
  const chars = [...flat];
  return chars.length > max
    ? `${chars
        .slice(0, max - 1)
        .join('')
        .trimEnd()}…`
    : flat;
}

/** Loop names, each quoted, as a list: "A", "B" and "C"; a long list ends "and 12 others" (listNames). */
export function quotedLoopNames(names: readonly string[], options: Parameters<typeof listNames>[1] = {}): string {
  return listNames(
    names.map((n) => quoted(n, QUOTE_LIMITS.loopName)),
    { maxNameChars: QUOTE_LIMITS.loopName + 2, ...options },
  );
}
