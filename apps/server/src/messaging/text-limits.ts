import { andList } from '@loop/shared/text';
import { LIMITS } from '@loop/shared/constants';

/**
 * Twilio refuses a body over 1,600 characters (error 21617). Every text Loop writes is built to
 * fit: lists are shortened ("and 12 others") and any text a person typed is clipped.
 * https://www.twilio.com/docs/api/errors/21617
 */
export const TEXT_MAX_CHARS = LIMITS.message;

/**
 * Twilio recommends template variables well under 250 characters, and a variable with newlines,
 * tabs or more than four spaces in a row is refused (63013 / 63028 family):
 * https://www.twilio.com/docs/content/create-templates-with-the-content-template-builder
 */
export const TEMPLATE_VARIABLE_MAX_CHARS = 200;

/** Cuts `text` to at most `max` characters (by UTF-16 units, as Twilio counts), ending in "…". */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.slice(0, max - 1);
  // Never end on half of a surrogate pair (an emoji).
  if (/[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/**
 * "A", "A and B", "A, B and C"; past `maxChars` (or `maxNames`) the rest are counted:
 * "A, B and 12 others". Each name is clipped to `maxNameChars`.
 */
export function listNames(names: readonly string[], options: { maxChars?: number; maxNames?: number; maxNameChars?: number } = {}): string {
  const maxChars = options.maxChars ?? 400;
  const maxNames = options.maxNames ?? 10;
  const all = names.map((n) => clip(n, options.maxNameChars ?? LIMITS.loopName));
  if (all.length <= maxNames && andList(all).length <= maxChars) return andList(all);
  for (let shown = Math.min(all.length - 1, maxNames); shown >= 1; shown--) {
    const others = all.length - shown;
    const text = `${all.slice(0, shown).join(', ')} and ${others === 1 ? '1 other' : `${others} others`}`;
    if (text.length <= maxChars) return text;
  }
  return `${all[0] ?? ''} and ${all.length - 1 === 1 ? '1 other' : `${all.length - 1} others`}`;
}

/** A value for a WhatsApp template variable: one line, no runs of spaces, short. */
export function templateVariable(text: string, max = TEMPLATE_VARIABLE_MAX_CHARS): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return clip(flat === '' ? '-' : flat, max);
}
