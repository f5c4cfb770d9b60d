/**
 * Control characters a person never types: NUL (PostgreSQL text cannot store it, so it used to
 * fail as a 500) and the other C0 controls and DEL. Tab and line breaks stay allowed.
 */
export function hasNoControlCharacters(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if ((code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0d) || code === 0x7f) return false;
  }
  return true;
}

/** The message for a field that holds one, e.g. "Loop name must not contain control characters". */
export function controlCharactersMessage(label: string): string {
  return `${label} must not contain control characters`;
}

/**
 * Only NUL, for text we wrote from members' texts (a newsletter draft): whatever else a phone
 * sent must not make the draft unsaveable.
 */
export function hasNoNul(value: string): boolean {
  return !value.includes('\u0000');
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * The text with each lone surrogate (half of an emoji, from a broken client or a JSON "\udce5")
 * replaced by U+FFFD, as node-postgres would send it anyway. PGlite fails on a lone surrogate
 * after a non-ASCII character, and jsonb refuses one: either was a 500.
 */
export function toWellFormed(value: string): string {
  return value.replace(LONE_SURROGATE, '\ufffd');
}

/** "A", "A and B", "A, B and C": every item, in order (see the server's listNames for a bounded list). */
export function andList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** "1 photo", "3 photos"; `many` for an irregular plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
