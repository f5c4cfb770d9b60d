/**
 * A text that says yes to Loop invitations: YES or JOIN (any case) alone on a line. The text may
 * name one Loop: on another line, as `#name`, as `Name: YES`, or right after the word ("JOIN Smith
 * Family"). That last, loose form counts only when the name fits one of the phone's invitations:
 * "Yes we made it to the lake" stays an update.
 */
export interface ConsentText {
  word: 'YES' | 'JOIN';
  /** The Loop named, or null for every open invitation. */
  name: string | null;
  loose: boolean;
}

const WORD = /^(yes|join)[!.]*$/i;

export function parseConsent(body: string): ConsentText | null {
  const lines = body
    .split(/\r\n|\r|\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const first = lines[0];
  if (!first) return null;
  const word = (w: string) => (w.toUpperCase().startsWith('Y') ? 'YES' : 'JOIN');
  const at = lines.findIndex((l) => WORD.test(l));
  if (at >= 0) {
    const rest = lines.filter((_, i) => i !== at).join(' ');
    const name = cleanName(rest);
    const matched = WORD.exec(lines[at] ?? '');
    return { word: word(matched?.[1] ?? 'yes'), name: name === '' ? null : name, loose: false };
  }
  if (lines.length !== 1) return null;
  const tagged = /^(yes|join)[!.,]*\s+#(.+)$/i.exec(first);
  if (tagged?.[1] && tagged[2]) return { word: word(tagged[1]), name: cleanName(tagged[2]), loose: false };
  const tagFirst = /^#(.+?)\s+(yes|join)[!.]*$/i.exec(first);
  if (tagFirst?.[1] && tagFirst[2]) return { word: word(tagFirst[2]), name: cleanName(tagFirst[1]), loose: false };
  const prefixed = /^([^:]{1,100}?)\s*:\s*(yes|join)[!.]*$/i.exec(first);
  if (prefixed?.[1] && prefixed[2]) return { word: word(prefixed[2]), name: cleanName(prefixed[1]), loose: false };
  const loose = /^(yes|join)[!.,:]*\s+(.{1,100})$/i.exec(first);
  if (loose?.[1] && loose[2]) return { word: word(loose[1]), name: cleanName(loose[2]), loose: true };
  return null;
}

function cleanName(text: string): string {
  return text
    .trim()
    .replace(/^#/, '')
    .replace(/[:!.]+$/, '')
    .trim();
}
