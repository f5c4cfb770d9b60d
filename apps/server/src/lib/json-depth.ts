const OPEN_ARRAY = 0x5b; // [
const OPEN_OBJECT = 0x7b; // {
const CLOSE_ARRAY = 0x5d; // ]
const CLOSE_OBJECT = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * True when the JSON text opens more than `maxDepth` arrays or objects inside one another. One
 * pass over the characters, no allocation, and it stops at the first level too deep, so a body of
 * a million `[` costs microseconds where parsing it costs a large part of a second of the event
 * loop (docs/decisions/0032-json-depth-and-simulator-uploads.md). Brackets inside strings do not
 * count; whether the text is valid JSON is the parser's business, afterwards.
 */
export function jsonTooDeep(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > maxDepth) return true;
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--;
    }
  }
  return false;
}
