import { inArray } from 'drizzle-orm';
import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import sharp from 'sharp';
import { clipLabel, type Clip } from '@loop/shared/media';
import { MEDIA_PATH, newsletterPath } from '@loop/shared/newsletters';
import type { DbOrTx } from '../db/client';
import { media } from '../db/schema';
import { findClips, findPhotos } from '../media/find-media';
import { formatPeriod } from '../publishing/period-label';
import { findMediaUrls } from '../publishing/render-markdown';
import type { MediaStorage } from '../storage/media-storage';
import type { PaperBlock, PaperIssue, PaperPhoto } from './paper-issue';

/** What the public page route reads of a newsletter (services/newsletters/find-public-newsletter.ts). */
export interface NewsletterSource {
  newsletter: {
    kind: 'newsletter' | 'sneak_peek';
    status: 'draft' | 'sent';
    title: string;
    content: string;
    periodStart: Date | null;
    periodEnd: Date;
    sentAt: Date | null;
    loopId: number;
    urlId: string;
  };
  loop: { name: string; timeZone: string };
}

// The same parser options as the page (publishing/render-markdown.ts): the same blocks, and HTML stays text.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });

/**
 * The one adapter from a newsletter as the public page reads it to the paper edition's data: its
 * Markdown walked into words and pictures, its photos (this Loop's, not deleted) loaded at their
 * largest stored width and re-encoded as JPEG with no metadata, its voice memos and videos as a
 * poster and a QR code to the file on the public site. Outside pictures are not fetched.
 */
export async function issueFromNewsletter(
  db: DbOrTx,
  storage: MediaStorage,
  publicUrl: string,
  source: NewsletterSource,
): Promise<PaperIssue> {
  const { newsletter, loop } = source;
  const urls = findMediaUrls(newsletter.content);
  const [photos, clips] = await Promise.all([
    findPhotos(db, urls, { loopId: newsletter.loopId }),
    findClips(db, urls, { loopId: newsletter.loopId }),
  ]);
  const pictures = await loadPictures(db, storage, [...photos.keys(), ...[...clips.values()].filter((c) => c.poster).map((c) => c.url)]);
  const blocks: PaperBlock[] = [];
  const lists: { ordered: boolean; next: number }[] = [];
  let quote = 0;
  const tokens = md.parse(newsletter.content, {});
  tokens.forEach((token, i) => {
    if (token.type === 'blockquote_open') quote += 1;
    else if (token.type === 'blockquote_close') quote -= 1;
    else if (token.type === 'bullet_list_open') lists.push({ ordered: false, next: 1 });
    else if (token.type === 'ordered_list_open') lists.push({ ordered: true, next: Number(token.attrGet('start') ?? 1) });
    else if (token.type === 'bullet_list_close' || token.type === 'ordered_list_close') lists.pop();
    else if (token.type === 'hr') blocks.push({ kind: 'rule' });
    else if (token.type === 'fence' || token.type === 'code_block') blocks.push({ kind: 'paragraph', text: token.content.trimEnd() });
    else if (token.type === 'inline') {
      const open = tokens[i - 1];
      const level = open?.type === 'heading_open' ? Math.min(3, Number(open.tag.slice(1))) : 0;
      const { text, strong, emphasis, images } = readInline(token.children ?? []);
      const list = lists.at(-1);
      if (text.trim()) {
        if (level) blocks.push({ kind: 'heading', level: level as 1 | 2 | 3, text });
        else if (quote) blocks.push({ kind: 'quote', text });
        else if (list && tokens[i - 2]?.type === 'list_item_open') {
          blocks.push({ kind: 'item', marker: list.ordered ? `${list.next++}.` : '•', depth: lists.length - 1, text });
        } else if (list) blocks.push({ kind: 'item', marker: '', depth: lists.length - 1, text });
        else blocks.push({ kind: 'paragraph', text, ...(strong ? { strong } : {}), ...(emphasis ? { emphasis } : {}) });
      }
      let gallery: PaperPhoto[] = [];
      const flush = () => {
        if (gallery.length) blocks.push({ kind: 'photos', photos: gallery });
        gallery = [];
      };
      for (const image of images) {
        const clip = clips.get(image.src);
        const picture = pictures.get(image.src);
        if (clip) {
          flush();
          blocks.push(clipBlock(clip, image, publicUrl, picture));
        } else if (photos.has(image.src) && picture) gallery.push({ ...picture, caption: image.title });
      }
      flush();
    }
  });
  return {
    loopName: loop.name,
    kicker: `${newsletter.kind === 'sneak_peek' ? 'Sneak peek' : 'Newsletter'}${newsletter.status === 'draft' ? ' (draft)' : ''}`,
    // A title that only repeats the Loop's name and period (the writers' default) is printed once, as the masthead.
    title: newsletter.title.startsWith(`${loop.name}:`) ? '' : newsletter.title,
    period: formatPeriod(newsletter.periodStart ?? newsletter.periodEnd, newsletter.periodEnd, loop.timeZone),
    sentLine: newsletter.sentAt ? `Sent ${formatDate(newsletter.sentAt, loop.timeZone)} with Loop.` : 'Written with Loop.',
    pageUrl: `${publicUrl}${newsletterPath(newsletter.urlId)}`,
    blocks,
  };
}

interface ImageRef {
  src: string;
  alt: string;
  title: string;
}

/** An inline run as plain words (a link keeps its address after it), and the images in it. */
function readInline(children: Token[]) {
  let text = '';
  const images: ImageRef[] = [];
  const links: string[] = [];
  for (const child of children) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n';
    else if (child.type === 'link_open') links.push(String(child.attrGet('href') ?? ''));
    else if (child.type === 'link_close') {
      const href = links.pop() ?? '';
      if (/^https?:\/\//.test(href) && !text.endsWith(href)) text += ` (${href})`;
    } else if (child.type === 'image') {
      const src = String(child.attrGet('src') ?? '');
      if (MEDIA_PATH.test(src)) images.push({ src, alt: child.content, title: String(child.attrGet('title') ?? '').trim() });
    }
  }
  const words = children.filter((c) => !['softbreak', 'hardbreak', 'image'].includes(c.type) && !(c.type === 'text' && !c.content.trim()));
  const wrapped = (open: string, close: string) => words[0]?.type === open && words.at(-1)?.type === close;
  return { text: text.trim(), strong: wrapped('strong_open', 'strong_close'), emphasis: wrapped('em_open', 'em_close'), images };
}

function clipBlock(clip: Clip, image: ImageRef, publicUrl: string, poster: Omit<PaperPhoto, 'caption'> | undefined): PaperBlock {
  return {
    kind: 'clip',
    media: clip.kind,
    label: image.alt.trim() || clipLabel(clip),
    caption: image.title,
    playUrl: `${publicUrl}${clip.url}`,
    poster: poster ? { ...poster, caption: '' } : null,
  };
}

/** Each photo's largest stored picture (a video's poster), as JPEG: sharp writes no metadata unless asked. */
async function loadPictures(db: DbOrTx, storage: MediaStorage, urls: string[]) {
  const found = new Map<string, Omit<PaperPhoto, 'caption'>>();
  const keys = urls.map((url) => url.slice('/media/'.length));
  if (keys.length === 0) return found;
  const rows = await db
    .select({ storageKey: media.storageKey, variants: media.variants })
    .from(media)
    .where(inArray(media.storageKey, keys));
  for (const row of rows) {
    const best = row.variants.filter((v) => v.durationMs === undefined).at(-1);
    const bytes = best ? await storage.get(best.key) : null;
    if (!bytes) continue;
    try {
      const { data, info } = await sharp(bytes).jpeg({ quality: 88, chromaSubsampling: '4:4:4' }).toBuffer({ resolveWithObject: true });
      found.set(`/media/${row.storageKey}`, { jpeg: data, width: info.width, height: info.height });
    } catch {
      // A file that cannot be read is left out, as a deleted photo is.
    }
  }
  return found;
}

function formatDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, month: 'long', day: 'numeric', year: 'numeric' }).format(date);
}
