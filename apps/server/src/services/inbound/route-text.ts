export interface LoopRef {
  id: number;
  name: string;
  /** Whose Loop it is, to tell two Loops of one name apart in a reply. */
  ownerName?: string;
  /** Its last sent newsletter, which a reaction answers (decision 0056). */
  lastIssue?: { id: number; sentAt: Date } | null;
}

export type Routing =
  /** Store `content` in each of `loops`. */
  | { kind: 'loops'; loops: LoopRef[]; content: string }
  /** The text names a Loop the sender is not in: nothing is stored. */
  | { kind: 'unknown_name'; name: string }
  /** The name it uses fits two or more of the sender's Loops equally: nothing is stored, Loop asks. */
  | { kind: 'same_name'; loops: LoopRef[] };

/** Lower case, no accents, letters and digits only: "Café  Crew!" and "#cafecrew" compare equal. */
export function nameKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}

const PREFIX = /^\s*([^:\n#]{1,100}?)\s*:(?:\s+|$)/;

/**
 * Decides which of the sender's Loops get a text: all of them, unless it names one with
 * `name:` at the start or `#name` anywhere (case and accents ignored, the name taken out of the text).
 * With one Loop, a name that matches nothing is just part of the text.
 */
export function routeText(text: string, loops: LoopRef[]): Routing {
  const prefix = PREFIX.exec(text);
  if (prefix?.[1] && /\p{L}/u.test(prefix[1])) {
    const key = nameKey(prefix[1]);
    const named = loops.filter((l) => nameKey(l.name) === key);
    if (named.length > 1) return { kind: 'same_name', loops: named };
    if (named.length > 0) return { kind: 'loops', loops: named, content: text.slice(prefix[0].length).trim() };
    if (loops.length > 1) return { kind: 'unknown_name', name: prefix[1].trim() };
  }

  const tags = findHashtags(text, loops);
  if (tags.tie) return { kind: 'same_name', loops: tags.tie };
  if (tags.named.length > 0) {
    let content = text;
    for (const span of [...tags.spans].sort((a, b) => b.start - a.start)) {
      content = content.slice(0, span.start) + content.slice(span.end);
    }
    return { kind: 'loops', loops: tags.named, content: tidy(content) };
  }
  if (tags.unmatched && loops.length > 1) return { kind: 'unknown_name', name: tags.unmatched };
  return { kind: 'loops', loops, content: text.trim() };
}

interface Span {
  start: number;
  end: number;
}

/** Every `#name` that names one of the Loops (the longest name wins), and the first that names none. */
function findHashtags(text: string, loops: LoopRef[]) {
  const named = new Map<number, LoopRef>();
  const spans: Span[] = [];
  let unmatched: string | undefined;
  let tie: LoopRef[] | undefined;
  for (const match of text.matchAll(/#(?=[\p{L}\p{N}])/gu)) {
    const start = match.index;
    let best: { loop: LoopRef; end: number; length: number; same: LoopRef[] } | undefined;
    for (const loop of loops) {
      const key = nameKey(loop.name);
      const end = matchName(text, start + 1, key);
      if (end === null) continue;
      if (!best || key.length > best.length) best = { loop, end, length: key.length, same: [loop] };
      else if (key.length === best.length) best.same.push(loop);
    }
    // Two Loops spelled the same: never pick one by the order they happen to be in.
    if (best && best.same.length > 1) tie ??= best.same;
    if (best) {
      named.set(best.loop.id, best.loop);
      spans.push({ start, end: best.end });
    } else {
      unmatched ??= /^#[\p{L}\p{N}_-]+/u.exec(text.slice(start))?.[0];
    }
  }
  return { named: [...named.values()], spans, unmatched, tie };
}

/**
 * Where `key` ends when it is spelled out in `text` from `from`, allowing spaces, dashes and
 * accents between its letters; null when it is not, or when a letter follows (#familyfun is not #family).
 */
function matchName(text: string, from: number, key: string): number | null {
  if (key === '') return null;
  let i = from;
  let k = 0;
  while (i < text.length && k < key.length) {
    const char = nameKey(text[i] ?? '');
    if (char === '') {
      // Separators inside a name: "#smith family", "#smith-family".
      if (k === 0 || !/[\s\-_'’.]/.test(text[i] ?? '')) return null;
      i++;
      continue;
    }
    if (!key.startsWith(char, k)) return null;
    k += char.length;
    i++;
  }
  if (k < key.length) return null;
  // Combining accents typed after the last letter belong to it.
  while (i < text.length && /\p{M}/u.test(text[i] ?? '')) i++;
  if (i < text.length && /[\p{L}\p{N}]/u.test(text[i] ?? '')) return null;
  return i;
}

function tidy(text: string): string {
  return text
    .replace(/[ \t]{2,}/g, ' ')
    .replace(/ +([,.!?])/g, '$1')
    .trim();
}
