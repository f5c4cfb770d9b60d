/** What one part of a newsletter is on the phone: words to say, or a member's voice memo to play. */
export type SpokenPart = { say: string } | { play: string };

/** One section of a newsletter as the phone reads it: a member's name first, then their news. */
export interface SpokenSection {
  parts: SpokenPart[];
}

const HEADING = /^#{1,6}\s+/;
const IMAGE = /!\[([^\]]*)\]\(([^)\s]+)\)/g;
const MEDIA_PATH = /^\/media\/([A-Za-z0-9_-]+)$/;

/**
 * A newsletter's Markdown as the phone line reads it (decision 0067): the opening, then one
 * section per `##` heading (the member's name first), each member's voice memos played where they
 * stand (their storage key, for a short-lived link), photos and videos left to the page, and a
 * memo's transcript not read twice. Formatting marks are not read out.
 */
export function newsletterSpeech(markdown: string): SpokenSection[] {
  const sections: SpokenSection[] = [];
  let current: SpokenPart[] = [];
  const flush = () => {
    if (current.length > 0) sections.push({ parts: current });
    current = [];
  };
  let lastWasMemo = false;
  for (const block of markdown.replace(/\r\n?/g, '\n').split(/\n{2,}/)) {
    const text = block.trim();
    if (text === '' || /^-{3,}$/.test(text)) continue;
    if (HEADING.test(text)) {
      flush();
      current.push({ say: `${plainText(text.replace(HEADING, ''))}.` });
      lastWasMemo = false;
      continue;
    }
    // A transcript quoted under the memo just played: the memo said it.
    if (lastWasMemo && text.startsWith('>') && text.includes('(transcribed)')) continue;
    lastWasMemo = false;
    let rest = text;
    for (const match of text.matchAll(IMAGE)) {
      const [whole, alt = '', url = ''] = match;
      rest = rest.replace(whole, ' ');
      const key = MEDIA_PATH.exec(url)?.[1];
      if (key && alt.startsWith('Voice memo')) {
        current.push({ say: `${plainText(alt)}.` }, { play: key });
        lastWasMemo = true;
      }
    }
    const words = plainText(rest);
    if (words) current.push({ say: words });
  }
  flush();
  return sections;
}

/** Markdown to the words a voice says: no emphasis marks, escapes, quote marks or links' addresses. */
export function plainText(markdown: string): string {
  return markdown
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^\s*>\s?/gm, '')
    .replace(/(?<!\\)(\*\*|__|\*|_|`)/g, '')
    .replace(/\\([\\`*_[\]<|~&#>+=.)-])/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}
