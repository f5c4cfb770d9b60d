import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { clipLabel, photoSrcset, type Clip, type Photo } from '@loop/shared/media';
import { isAllowedNewsletterUrl, MEDIA_PATH } from '@loop/shared/newsletters';

// html: false makes any HTML in the Markdown plain text; the sanitizer below is the second layer.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });

/** The newsletter's stored photos by /media/ path: what srcset, width and height are made of. */
export type PhotoSizes = ReadonlyMap<string, Photo>;
/** The newsletter's voice memos and videos by /media/ path (decision 0023). */
export type ClipFiles = ReadonlyMap<string, Clip>;

interface RenderEnv {
  /** When given, a /media/ photo not in it (deleted, or never ours) is left out. */
  photos?: PhotoSizes;
  /** A /media/ image whose path is a voice memo or video becomes its player. */
  clips?: ClipFiles;
  /** The page's own address: the printed edition says "Listen online" there instead of a player. */
  pageUrl?: string;
}

/**
 * How wide a photo is drawn on the public page (newsletter.css): the column is 100vw less 2.5rem
 * on a phone and 38rem (608 px) from 48rem up; a gallery tile is half a phone's column, a third of
 * the wide one. The browser picks the smallest stored width that fills it at its pixel density.
 */
export const PHOTO_SIZES = {
  single: '(min-width: 48rem) 38rem, calc(100vw - 2.5rem)',
  tile: '(min-width: 48rem) 12.5rem, calc(50vw - 1.5rem)',
};

const renderImage = md.renderer.rules.image;
/** A photo is a link to itself: it opens large without JavaScript, and the lightbox script enhances it. */
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const photos = (env as RenderEnv | undefined)?.photos;
  const token = tokens[idx];
  const src = String(token?.attrGet('src') ?? '');
  // A caption is the image's Markdown title (`![alt](/media/key "caption")`, decision 0041), drawn under it.
  const title = String(token?.attrGet('title') ?? '').trim();
  const caption = (name: string) => (title ? `<span class="${name}">${md.utils.escapeHtml(title)}</span>` : '');
  const clip = MEDIA_PATH.test(src) ? (env as RenderEnv | undefined)?.clips?.get(src) : undefined;
  if (clip) return renderClip(clip, (env as RenderEnv | undefined)?.pageUrl, caption('clip-caption'));
  const allowed = token !== undefined && isAllowedNewsletterUrl(src);
  const size = MEDIA_PATH.test(src) ? photos?.get(src) : undefined;
  if (MEDIA_PATH.test(src) && photos && !size) return '';
  if (allowed) token.attrSet('loading', 'lazy');
  if (token && size) {
    token.attrSet('width', String(size.width));
    token.attrSet('height', String(size.height));
    token.attrSet('srcset', photoSrcset(size));
    token.attrSet('sizes', (token.meta as { tile?: boolean } | null)?.tile ? PHOTO_SIZES.tile : PHOTO_SIZES.single);
    token.attrSet('decoding', 'async');
  }
  const img = renderImage ? renderImage(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  if (!allowed) return img;
  const link = `<a class="photo" href="${md.utils.escapeHtml(src)}">${img}</a>`;
  // A caption sits under the photo's link, not in it: it is words, not a link (and prints with it).
  return title ? `<span class="photo-item">${link}${caption('photo-caption')}</span>` : link;
};

/**
 * A voice memo or video (`![Voice memo from Ada](/media/key)` in the Markdown) as a player that
 * loads nothing until pressed, sized so nothing shifts, with its length beside it. On paper
 * (newsletter.css, print) the player is hidden and "Listen online" gives the page's address; the
 * transcript is in the text, quoted by the writer under the memo.
 */
function renderClip(clip: Clip, pageUrl: string | undefined, caption: string): string {
  const src = md.utils.escapeHtml(clip.url);
  const label = md.utils.escapeHtml(clipLabel(clip));
  const player =
    clip.kind === 'audio'
      ? `<audio controls preload="none" src="${src}"></audio>`
      : `<video controls playsinline preload="none" src="${src}" width="${clip.width}" height="${clip.height}"${clip.poster ? ` poster="${md.utils.escapeHtml(clip.poster)}"` : ''}></video>`;
  const online = pageUrl
    ? `<span class="clip-online">${clip.kind === 'audio' ? 'Listen' : 'Watch'} online: <a href="${md.utils.escapeHtml(pageUrl)}">${md.utils.escapeHtml(pageUrl)}</a></span>`
    : '';
  return `<span class="clip">${player}${caption}<span class="clip-label">${label}</span>${online}</span>`;
}

/** A paragraph of nothing but photos becomes a gallery; with two or more, each photo is a tile. */
md.core.ruler.push('photo_gallery', (state) => {
  state.tokens.forEach((token, i) => {
    const inline = state.tokens[i + 1];
    if (token.type !== 'paragraph_open' || inline?.type !== 'inline') return;
    const children = inline.children ?? [];
    if (!isOnlyImages(children)) return;
    // A voice memo or video is drawn full width with its own label, never as a gallery tile.
    const clips = (state.env as RenderEnv | undefined)?.clips;
    if (clips && children.some((c) => c.type === 'image' && clips.has(String(c.attrGet('src') ?? '')))) return;
    token.attrJoin('class', 'gallery');
    const images = children.filter((c) => c.type === 'image');
    if (images.length > 1) for (const image of images) image.meta = { tile: true };
  });
});

function isOnlyImages(children: Token[]): boolean {
  const images = children.filter((c) => c.type === 'image');
  return (
    images.length > 0 &&
    children.every(
      (c) => c.type === 'image' || c.type === 'softbreak' || c.type === 'hardbreak' || (c.type === 'text' && c.content.trim() === ''),
    )
  );
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'strong',
    'em',
    's',
    'del',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'code',
    'pre',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'span',
    'audio',
    'video',
  ],
  allowedAttributes: {
    a: ['href', 'class', 'rel'],
    img: ['src', 'srcset', 'sizes', 'width', 'height', 'alt', 'title', 'loading', 'decoding'],
    p: ['class'],
    ol: ['start'],
    span: ['class'],
    audio: ['src', 'controls', 'preload'],
    video: ['src', 'controls', 'playsinline', 'preload', 'poster', 'width', 'height'],
  },
  allowedClasses: {
    a: ['photo'],
    p: ['gallery'],
    span: ['clip', 'clip-label', 'clip-online', 'clip-caption', 'photo-caption', 'photo-item'],
  },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      const safe: sanitizeHtml.Attributes = href !== undefined && isAllowedNewsletterUrl(href) ? { href } : {};
      return { tagName, attribs: { ...rest, ...safe, rel: 'nofollow ugc noopener noreferrer' } };
    },
    // A player plays only our own files (the renderer wrote it from a stored clip), never another address.
    audio: (tagName, attribs) => ({ tagName, attribs: ownClip(attribs) }),
    video: (tagName, attribs) => ({ tagName, attribs: ownClip(attribs) }),
    img: (tagName, attribs) => {
      const { src, srcset, ...rest } = attribs;
      if (src === undefined || !isAllowedNewsletterUrl(src)) return { tagName, attribs: rest };
      // Only the srcset this renderer wrote: every candidate one of this photo's own sizes.
      const ownSizes =
        srcset !== undefined &&
        MEDIA_PATH.test(src) &&
        srcset.split(', ').every((c) => new RegExp(`^${src}/[1-9][0-9]{0,4} [1-9][0-9]{0,4}w$`).test(c));
      return { tagName, attribs: ownSizes ? { ...rest, src, srcset } : { ...rest, src } };
    },
  },
  // An image, voice memo or video whose address was refused is dropped, not left as a broken box.
  exclusiveFilter: (frame) => ['img', 'audio', 'video'].includes(frame.tag) && !frame.attribs.src,
};

function ownClip(attribs: sanitizeHtml.Attributes): sanitizeHtml.Attributes {
  const { src, poster, ...rest } = attribs;
  if (src === undefined || !MEDIA_PATH.test(src)) return rest;
  const ownPoster = poster !== undefined && new RegExp(`^${src}/[1-9][0-9]{0,4}$`).test(poster);
  return { ...rest, src, ...(ownPoster ? { poster } : {}) };
}

/**
 * Newsletter Markdown as safe HTML: markdown-it without HTML, then sanitize-html with an allow-list.
 * Nothing a member or an editor writes can become script, an event handler or a javascript: link.
 */
export function renderMarkdown(markdown: string, photos?: PhotoSizes, clips?: ClipFiles, pageUrl?: string): string {
  const env: RenderEnv = { ...(photos ? { photos } : {}), ...(clips ? { clips } : {}), ...(pageUrl ? { pageUrl } : {}) };
  return sanitizeHtml(md.render(markdown, env as Record<string, unknown>), SANITIZE);
}

/**
 * The Markdown's tokens exactly as the page renders them: the gallery rule applied, a voice memo
 * or video never a tile. What the newsletter view's blocks are read from (newsletter-view.ts).
 */
export function parseMarkdown(markdown: string, clips?: ClipFiles): Token[] {
  return md.parse(markdown, clips ? { clips } : {});
}

/**
 * Every image a newsletter's Markdown shows, in order: stored media (photos, voice memos, videos)
 * by /media/ path and pictures from the web. findPhotos and findClips sort them by kind; the
 * public page takes its Open Graph image from them.
 */
export function findMediaUrls(markdown: string): string[] {
  const urls: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'image') {
        const src = String(token.attrGet('src') ?? '');
        if (isAllowedNewsletterUrl(src)) urls.push(src);
      }
      if (token.children) walk(token.children);
    }
  };
  walk(md.parse(markdown, {}));
  return urls;
}

/** The words of a newsletter without markup, for a link preview's description. */
export function markdownToPlainText(markdown: string): string {
  const words: string[] = [];
  for (const token of md.parse(markdown, {})) {
    if (token.type !== 'inline' || !token.children) continue;
    words.push(
      token.children.map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type.endsWith('break') ? ' ' : '')).join(''),
    );
  }
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

/** What a reader sees of one block of a newsletter: its words, and the links it makes (with their words). */
export interface MarkdownBlock {
  text: string;
  links: { href: string; label: string }[];
}

/**
 * The newsletter as a reader sees it, block by block (paragraphs, headings, list items, table
 * cells, code; an image's alt text and caption are blocks of their own), parsed exactly as the
 * page renders it: entities decoded, escapes gone, line breaks kept. The model writer's answer is
 * checked on this, not on its source (publishing/member-addresses.ts).
 */
export function readBlocks(markdown: string): MarkdownBlock[] {
  const blocks: MarkdownBlock[] = [];
  for (const token of md.parse(markdown, {})) {
    if (token.type === 'fence' || token.type === 'code_block') blocks.push({ text: token.content, links: [] });
    if (token.type !== 'inline') continue;
    const block: MarkdownBlock = { text: '', links: [] };
    const open: { href: string; start: number }[] = [];
    for (const child of token.children ?? []) {
      if (child.type === 'text' || child.type === 'code_inline') block.text += child.content;
      else if (child.type === 'softbreak' || child.type === 'hardbreak') block.text += '\n';
      else if (child.type === 'link_open') open.push({ href: String(child.attrGet('href') ?? ''), start: block.text.length });
      else if (child.type === 'link_close') {
        const link = open.pop();
        if (link) block.links.push({ href: link.href, label: block.text.slice(link.start) });
      } else if (child.type === 'image') {
        blocks.push({ text: [child.content, String(child.attrGet('title') ?? '')].join('\n'), links: [] });
      }
    }
    blocks.push(block);
  }
  return blocks;
}
