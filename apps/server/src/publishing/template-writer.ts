import { formatDuration, type Clip } from '@loop/shared/media';
import { escapeMarkdown, escapeMarkdownLine } from './markdown-text';
import { andList, plural } from '@loop/shared/text';
import { formatDay, formatPeriod } from './period-label';
import { voiceFor, type OpeningFacts } from './template-voices';
import { wordsOf, type NewsletterInput, type NewsletterWriter, type WriterUpdate, type WrittenNewsletter } from './writer';

/** How many photos and how much text a sneak peek shows: a taste, not the newsletter. */
const TEASER_PHOTOS = 3;
const TEASER_SNIPPET = 140;

/** The default writer: deterministic, no network. The same input always gives the same newsletter. */
export const templateWriter: NewsletterWriter = {
  name: 'template',
  write: async (input) => writeFromTemplate(input),
};

export function writeFromTemplate(input: NewsletterInput): WrittenNewsletter {
  const period = formatPeriod(input.period.start, input.period.end, input.loop.timeZone);
  const content = input.kind === 'sneak_peek' ? writeTeaser(input, period) : writeNewsletter(input, period);
  const title = input.kind === 'sneak_peek' ? `${input.loop.name} sneak peek: ${period}` : `${input.loop.name}: ${period}`;
  return { title, content, writer: 'template', fellBack: false };
}

function writeNewsletter(input: NewsletterInput, period: string): string {
  const voice = voiceFor(input.loop.vibe);
  const blocks = [voice.opening(facts(input, period))];
  if (input.loop.context) blocks.push(`${voice.contextLead} *${escapeMarkdownLine(input.loop.context)}*`);
  if (input.updates.length === 0) blocks.push(voice.quiet);
  for (const updates of byAuthor(input.updates)) blocks.push(section(updates, input.loop.timeZone));
  blocks.push('---', voice.closing(escapeMarkdownLine(input.loop.name)));
  return `${blocks.join('\n\n')}\n`;
}

/** One section per member, in the order they first shared; their updates in time order. */
function section(updates: WriterUpdate[], timeZone: string): string {
  const first = updates[0];
  if (!first) return '';
  const { firstName, lastName, context } = first.author;
  const blocks = [`## ${escapeMarkdownLine(`${firstName} ${lastName}`)}`];
  if (context) blocks.push(`*${escapeMarkdownLine(context)}*`);
  let lastDay = '';
  for (const update of updates) {
    const day = formatDay(update.createdAt, timeZone);
    if (day !== lastDay) blocks.push(`**${day}**`);
    lastDay = day;
    const text = escapeMarkdown(update.content);
    if (text) blocks.push(text);
    if (update.photoUrls.length) blocks.push(photos(update.photoUrls, firstName));
    for (const clip of update.clips ?? []) {
      blocks.push(clipBlock(clip, firstName));
      if (clip.transcript) blocks.push(transcriptQuote(clip.transcript));
    }
  }
  return blocks.join('\n\n');
}

/** A voice memo or video, placed like a photo; the page plays it (render-markdown.ts), print shows its words. */
function clipBlock(clip: Clip, firstName: string): string {
  const what = clip.kind === 'audio' ? 'Voice memo' : 'Video';
  return `![${escapeMarkdownLine(`${what} from ${firstName}, ${formatDuration(clip.durationMs)}`)}](${clip.url})`;
}

/** A voice memo's words, quoted right under its player and marked as transcribed (decision 0024). */
function transcriptQuote(transcript: string): string {
  const lines = escapeMarkdown(transcript).split('\n');
  return `> “${lines.join('\n> ')}” *(transcribed)*`;
}

function photos(urls: string[], firstName: string): string {
  const alt = escapeMarkdownLine(`Photo from ${firstName}`);
  return urls.map((url) => `![${alt}](${url})`).join(' ');
}

function writeTeaser(input: NewsletterInput, period: string): string {
  const voice = voiceFor(input.loop.vibe);
  const blocks = [voice.teaser(facts(input, period))];
  const highlight = input.updates.find((u) => wordsOf(u) !== '');
  if (highlight) {
    blocks.push(`> **${escapeMarkdownLine(highlight.author.firstName)}:** ${escapeMarkdownLine(snippet(wordsOf(highlight)))}`);
  }
  const teaserPhotos = input.updates
    .flatMap((u) => u.photoUrls.map((url) => ({ url, firstName: u.author.firstName })))
    .slice(0, TEASER_PHOTOS);
  if (teaserPhotos.length) blocks.push(teaserPhotos.map((p) => photos([p.url], p.firstName)).join(' '));
  blocks.push('The full newsletter is coming soon. Text your news and photos to be in it!');
  return `${blocks.join('\n\n')}\n`;
}

/** "7 updates and 4 photos", people "Ada, Ben and Cleo": escaped, ready for Markdown. */
function facts(input: NewsletterInput, period: string): OpeningFacts {
  return { loopName: escapeMarkdownLine(input.loop.name), period, ...describeUpdates(input.updates, escapeMarkdownLine) };
}

/** The counts and names of a set of updates, in words; `escape` makes names safe for where they go. */
export function describeUpdates(updates: WriterUpdate[], escape: (text: string) => string = (t) => t) {
  const count = (n: number, word: string) => (n > 0 ? [plural(n, word)] : []);
  const photoCount = updates.reduce((sum, u) => sum + u.photoUrls.length, 0);
  const clips = updates.flatMap((u) => u.clips ?? []);
  const voice = clips.filter((c) => c.kind === 'audio').length;
  // "7 updates, 4 photos and 2 voice memos"
  const summary = andList([
    plural(updates.length, 'update'),
    ...count(photoCount, 'photo'),
    ...count(voice, 'voice memo'),
    ...count(clips.length - voice, 'video'),
  ]);
  const names = byAuthor(updates).map((list) => escape(list[0]?.author.firstName ?? ''));
  return { summary, people: names.length ? andList(names) : 'nobody yet', authors: names };
}

function byAuthor(updates: WriterUpdate[]): WriterUpdate[][] {
  const groups = new Map<number, WriterUpdate[]>();
  for (const update of updates) {
    const list = groups.get(update.authorId) ?? [];
    list.push(update);
    groups.set(update.authorId, list);
  }
  return [...groups.values()];
}

function snippet(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= TEASER_SNIPPET) return flat;
  const cut = flat.slice(0, TEASER_SNIPPET);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), TEASER_SNIPPET / 2))}…`;
}
