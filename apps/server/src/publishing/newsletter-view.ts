import type { Token } from 'markdown-it';
import type { Clip, Photo } from '@loop/shared/media';
import { isAllowedNewsletterUrl, MEDIA_PATH } from '@loop/shared/newsletters';
import { formatPeriod } from './period-label';
import { parseMarkdown, type ClipFiles, type PhotoSizes } from './render-markdown';

/** Words and what they are inside a block. Text is plain: each renderer escapes it where it goes. */
export type ViewInline =
  | { type: 'text'; text: string }
  | { type: 'break' }
  | { type: 'code'; text: string }
  | { type: 'strong' | 'em' | 's'; children: ViewInline[] }
  /** href: a web address or /media/ path only (isAllowedNewsletterUrl); null keeps the words, not the link. */
  | { type: 'link'; href: string | null; children: ViewInline[] }
  /** A member's stored photo, with its sizes; in a gallery of two or more, a tile. */
  | { type: 'photo'; photo: Photo; alt: string; caption: string | null; tile: boolean }
  /** A picture from elsewhere on the web: the page shows it, the e-mail leaves it out (unknown size, a tracker). */
  | { type: 'picture'; src: string; alt: string; caption: string | null }
  /** A voice memo or video, with its transcript when it has one (decision 0023). */
  | { type: 'clip'; clip: Clip; alt: string; caption: string | null };

export type ViewBlock =
  | { type: 'heading'; level: number; content: ViewInline[] }
  /** gallery: nothing but photos; with two or more each is a tile. */
  | { type: 'paragraph'; gallery: boolean; content: ViewInline[] }
  /** tight: its items' paragraphs are drawn without a paragraph's spacing. */
  | { type: 'list'; ordered: boolean; start: number; tight: boolean; items: ViewBlock[][] }
  | { type: 'quote'; blocks: ViewBlock[] }
  | { type: 'code'; text: string }
  | { type: 'rule' }
  | { type: 'table'; rows: { header: boolean; cells: ViewInline[][] }[] };

/** A part of the issue under one `##` heading: the writers give each member one, under their name. */
export interface ViewSection {
  heading: Extract<ViewBlock, { type: 'heading' }> | null;
  blocks: ViewBlock[];
}

/** The cover photo (the Loop's own picture); null until a Loop has one. */
export interface NewsletterCover {
  url: string;
  width: number;
  height: number;
  alt: string;
}

/**
 * One newsletter as every edition shows it: the public page, the owner's live preview, the print
 * view and the e-mail each render this, and only this. Built by buildNewsletterView
 * (services/newsletters/build-newsletter-view.ts), from data: nothing in it is HTML.
 */
export interface NewsletterView {
  newsletter: {
    kind: 'newsletter' | 'sneak_peek';
    status: 'draft' | 'sent';
    /** The newsletter's own title; '' when it has none (the page then reads "{Loop}: {period}"). */
    title: string;
    /** The Markdown it is written in, as stored (or as the editor has it, for the preview). */
    content: string;
    sentAt: Date | null;
  };
  loop: { name: string; timeZone: string };
  /** "November 1 – 15, 2026" in the Loop's time zone. */
  period: string;
  /** "Newsletter" or "Sneak peek". */
  kicker: string;
  /** The page's own absolute address, and PUBLIC_URL for absolute photo links. */
  pageUrl: string;
  publicUrl: string;
  cover: NewsletterCover | null;
  sections: ViewSection[];
  /** Who the sections are by, as their headings name them, in order. */
  authors: string[];
  /** The photos that exist, with their sizes, by /media/ path: a deleted one is left out everywhere. */
  photos: PhotoSizes;
  /** Its voice memos and videos that exist, by /media/ path, with their transcripts. */
  clips: ClipFiles;
  /** Members' reactions to a sent issue (decision 0056): first names and what they sent (userId: whose, never shown). */
  reactions: readonly { firstName: string; body: string; userId: number }[];
}

export interface NewsletterViewInput {
  newsletter: NewsletterView['newsletter'] & { periodStart: Date | null; periodEnd: Date };
  loop: NewsletterView['loop'];
  pageUrl: string;
  publicUrl: string;
  photos: PhotoSizes;
  clips: ClipFiles;
  reactions?: NewsletterView['reactions'];
  cover?: NewsletterCover | null;
}

/** The view from what was found of a newsletter; no database (buildNewsletterView finds it). */
export function toNewsletterView(input: NewsletterViewInput): NewsletterView {
  const { newsletter, loop } = input;
  const blocks = readBlocks(parseMarkdown(newsletter.content, input.clips), input);
  const sections: ViewSection[] = [];
  for (const block of blocks) {
    if (block.type === 'heading' && block.level <= 2) sections.push({ heading: block, blocks: [] });
    else if (sections.length === 0) sections.push({ heading: null, blocks: [block] });
    else sections.at(-1)!.blocks.push(block);
  }
  return {
    newsletter: {
      kind: newsletter.kind,
      status: newsletter.status,
      title: newsletter.title,
      content: newsletter.content,
      sentAt: newsletter.sentAt,
    },
    loop: { name: loop.name, timeZone: loop.timeZone },
    period: formatPeriod(newsletter.periodStart ?? newsletter.periodEnd, newsletter.periodEnd, loop.timeZone),
    kicker: newsletter.kind === 'sneak_peek' ? 'Sneak peek' : 'Newsletter',
    pageUrl: input.pageUrl,
    publicUrl: input.publicUrl,
    cover: input.cover ?? null,
    sections,
    authors: sections.flatMap((s) => (s.heading ? [inlineText(s.heading.content)] : [])).filter((name) => name !== ''),
    photos: input.photos,
    clips: input.clips,
    reactions: input.reactions ?? [],
  };
}

/** The words of inline content, without markup. */
export function inlineText(content: readonly ViewInline[]): string {
  return content
    .map((c) => {
      if (c.type === 'text' || c.type === 'code') return c.text;
      if (c.type === 'break') return '\n';
      if (c.type === 'strong' || c.type === 'em' || c.type === 's' || c.type === 'link') return inlineText(c.children);
      return '';
    })
    .join('');
}

type Found = Pick<NewsletterViewInput, 'photos' | 'clips'>;

/** markdown-it's block tokens as a tree of blocks. */
function readBlocks(tokens: Token[], found: Found): ViewBlock[] {
  const blocks: ViewBlock[] = [];
  let i = 0;
  while (i < tokens.length) {
    const token = tokens[i]!;
    const end = closing(tokens, i);
    const inner = tokens.slice(i + 1, end);
    switch (token.type) {
      case 'heading_open':
        blocks.push({ type: 'heading', level: Number(token.tag.slice(1)), content: readInline(inner[0], found) });
        break;
      case 'paragraph_open': {
        const content = readInline(inner[0], found);
        if (content.length > 0) blocks.push({ type: 'paragraph', gallery: token.attrGet('class') === 'gallery', content });
        break;
      }
      case 'bullet_list_open':
      case 'ordered_list_open':
        blocks.push({
          type: 'list',
          ordered: token.type === 'ordered_list_open',
          start: Number(token.attrGet('start') ?? 1),
          tight: inner.some((t) => t.type === 'paragraph_open' && t.hidden),
          items: children(inner).map((item) => readBlocks(item, found)),
        });
        break;
      case 'blockquote_open':
        blocks.push({ type: 'quote', blocks: readBlocks(inner, found) });
        break;
      case 'fence':
      case 'code_block':
        blocks.push({ type: 'code', text: token.content });
        break;
      case 'hr':
        blocks.push({ type: 'rule' });
        break;
      case 'table_open':
        blocks.push({ type: 'table', rows: readRows(inner, found) });
        break;
      default:
        break;
    }
    i = end + 1;
  }
  return blocks;
}

/** The index of the token that closes the one at `start` (itself when it opens nothing). */
function closing(tokens: Token[], start: number): number {
  if (tokens[start]!.nesting !== 1) return start;
  let depth = 0;
  for (let i = start; i < tokens.length; i++) {
    depth += tokens[i]!.nesting;
    if (depth === 0) return i;
  }
  return tokens.length - 1;
}

/** The tokens inside each child of a container (the items of a list). */
function children(tokens: Token[]): Token[][] {
  const found: Token[][] = [];
  for (let i = 0; i < tokens.length; i++) {
    const end = closing(tokens, i);
    found.push(tokens.slice(i + 1, end));
    i = end;
  }
  return found;
}

function readRows(tokens: Token[], found: Found): { header: boolean; cells: ViewInline[][] }[] {
  const rows: { header: boolean; cells: ViewInline[][] }[] = [];
  let header = false;
  for (const token of tokens) {
    if (token.type === 'thead_open') header = true;
    if (token.type === 'thead_close') header = false;
    if (token.type === 'tr_open') rows.push({ header, cells: [] });
    if (token.type === 'inline') rows.at(-1)?.cells.push(readInline(token, found));
  }
  return rows;
}

/** An inline token's children as a tree; pictures and links only to addresses a newsletter may use. */
function readInline(token: Token | undefined, found: Found): ViewInline[] {
  const root: ViewInline[] = [];
  const stack: ViewInline[][] = [root];
  const push = (node: ViewInline) => stack.at(-1)!.push(node);
  for (const child of token?.children ?? []) {
    switch (child.type) {
      case 'text':
        push({ type: 'text', text: child.content });
        break;
      case 'code_inline':
        push({ type: 'code', text: child.content });
        break;
      case 'softbreak':
      case 'hardbreak':
        push({ type: 'break' });
        break;
      case 'strong_open':
      case 'em_open':
      case 's_open': {
        const node = { type: child.type.replace('_open', '') as 'strong' | 'em' | 's', children: [] as ViewInline[] };
        push(node);
        stack.push(node.children);
        break;
      }
      case 'link_open': {
        const href = String(child.attrGet('href') ?? '');
        const node = { type: 'link' as const, href: isAllowedNewsletterUrl(href) ? href : null, children: [] as ViewInline[] };
        push(node);
        stack.push(node.children);
        break;
      }
      case 'strong_close':
      case 'em_close':
      case 's_close':
      case 'link_close':
        if (stack.length > 1) stack.pop();
        break;
      case 'image': {
        const image = readImage(child, found);
        if (image) push(image);
        break;
      }
      default:
        break;
    }
  }
  return root;
}

/** A stored photo, clip or web picture; null for a /media/ path that is not this issue's, or a refused address. */
function readImage(token: Token, found: Found): ViewInline | null {
  const src = String(token.attrGet('src') ?? '');
  const alt = (token.children ?? []).map((c) => c.content).join('');
  const title = String(token.attrGet('title') ?? '').trim();
  const caption = title === '' ? null : title;
  if (MEDIA_PATH.test(src)) {
    const clip = found.clips.get(src);
    if (clip) return { type: 'clip', clip, alt, caption };
    const photo = found.photos.get(src);
    const tile = (token.meta as { tile?: boolean } | null)?.tile === true;
    return photo ? { type: 'photo', photo, alt, caption, tile } : null;
  }
  return isAllowedNewsletterUrl(src) ? { type: 'picture', src, alt, caption } : null;
}
