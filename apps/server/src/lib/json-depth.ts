const OPEN_ARRAY = 0x5b; // [
const OPEN_OBJECT = 0x7b; // {
const CLOSE_ARRAY = 0x5d; // ]
const CLOSE_OBJECT = 0x7d; // }
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \

/**
 * A scanner for a JSON body arriving in pieces of bytes: each call takes the next piece and answers
 * true as soon as more than `maxDepth` arrays or objects are open inside one another. It reads
 * bytes, not characters: the brackets, quote and backslash are ASCII, and no byte of a UTF-8
 * sequence for another character is below 0x80, so nothing is decoded. One pass, no allocation,
 * so a body of a million `[` is refused after its first few dozen bytes, where parsing it would
 * cost a large part of a second of the event loop (decision 0032). Brackets inside strings do not
 * count; whether the text is valid JSON is the parser's business.
 */
export function jsonDepthScanner(maxDepth: number): (piece: Uint8Array) => boolean {
  let depth = 0;
  let inString = false;
  let escaped = false;
  return (piece) => {
    for (let i = 0; i < piece.length; i++) {
      const c = piece[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
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
  };
}

/** The same for a whole text. */
export function jsonTooDeep(text: string, maxDepth: number): boolean {
  return jsonDepthScanner(maxDepth)(Buffer.from(text));
}
