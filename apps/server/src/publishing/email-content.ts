import { createElement as h, Fragment, type CSSProperties, type ReactNode } from 'react';
import { clipLabel, photoAtLeast, type Clip, type Photo } from '@loop/shared/media';
import type { NewsletterView, ViewBlock, ViewInline } from './newsletter-view';

/**
 * The newsletter's words, photos and clips as e-mail, drawn from the newsletter view's blocks with
 * React (escaped by React, so nothing a member wrote becomes markup): absolute addresses, one
 * sized photo each (no srcset, which most mail apps ignore) with width, height and alt, voice
 * memos and videos as a link to the page (no mail app plays <audio>/<video> reliably:
 * https://www.caniemail.com/features/html-audio/, https://www.caniemail.com/features/html-video/),
 * and inline styles, which Gmail keeps everywhere.
 */

/** How wide the content column is drawn (px): the container is 600, less 2 × 20 padding. */
export const COLUMN = 560;
/** A gallery tile: two to a row, each just under half the column, so they wrap to one a row below 320 px. */
export const TILE = 272;

// The public page's palette (newsletter.css); dark mode is in the document's <style> (newsletter-email.ts).
export const C = { paper: '#fffdf8', ink: '#2b2622', muted: '#6f6259', accent: '#a3442a', line: '#ecdfd3', wash: '#f6ece2' };
export const SANS = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
export const SERIF = "Georgia, 'Iowan Old Style', 'Times New Roman', serif";
const MONO = 'Menlo,Consolas,monospace';

const text: CSSProperties = { fontFamily: SANS, fontSize: '17px', lineHeight: '1.6', color: C.ink };
const S = {
  p: { margin: '0 0 16px', ...text },
  h1: { margin: '28px 0 10px', fontFamily: SERIF, fontSize: '26px', lineHeight: '1.25', fontWeight: 700, color: C.ink },
  h2: { margin: '28px 0 10px', fontFamily: SERIF, fontSize: '23px', lineHeight: '1.3', fontWeight: 700, color: C.ink },
  h3: { margin: '22px 0 8px', fontFamily: SERIF, fontSize: '19px', lineHeight: '1.3', fontWeight: 700, color: C.ink },
  h4: { margin: '18px 0 6px', fontFamily: SANS, fontSize: '17px', fontWeight: 700, color: C.ink },
  list: { margin: '0 0 16px', padding: '0 0 0 24px', ...text },
  li: { margin: '0 0 6px', color: C.ink },
  quote: { margin: '0 0 16px', padding: '2px 0 2px 16px', borderLeft: `3px solid ${C.line}`, color: C.muted, fontStyle: 'italic' },
  a: { color: C.accent, textDecoration: 'underline' },
  hr: { border: '0', borderTop: `1px solid ${C.line}`, margin: '28px 0' },
  code: { fontFamily: MONO, fontSize: '15px' },
  pre: { whiteSpace: 'pre-wrap', fontFamily: MONO, fontSize: '15px', margin: '0 0 16px' },
  table: { borderCollapse: 'collapse', margin: '0 0 16px', fontFamily: SANS, fontSize: '16px' },
  th: { border: `1px solid ${C.line}`, padding: '6px 8px', textAlign: 'left' },
  td: { border: `1px solid ${C.line}`, padding: '6px 8px' },
  gallery: { margin: '0 0 12px', fontSize: '0', lineHeight: '0', textAlign: 'center' },
  tile: {
    display: 'inline-block',
    width: '48%',
    maxWidth: `${TILE}px`,
    margin: '0 1% 8px',
    verticalAlign: 'top',
    textDecoration: 'none',
    color: 'inherit',
  },
  photoLink: { textDecoration: 'none', color: 'inherit' },
  caption: {
    display: 'block',
    margin: '6px 0 0',
    fontFamily: SANS,
    fontSize: '15px',
    lineHeight: '1.4',
    color: C.muted,
    textAlign: 'left',
  },
  clip: {
    display: 'block',
    margin: '0 0 16px',
    padding: '12px',
    border: `1px solid ${C.line}`,
    borderRadius: '12px',
    backgroundColor: C.wash,
    color: C.ink,
    textDecoration: 'none',
    fontFamily: SANS,
    fontSize: '16px',
    lineHeight: '1.4',
  },
  block: { display: 'block' },
  clipCaption: { display: 'block', margin: '6px 0 2px', color: C.ink },
  clipLabel: { display: 'block', color: C.accent, fontWeight: 700, textDecoration: 'underline' },
} satisfies Record<string, CSSProperties>;

/** As the page's links: a member's link vouches for nothing and learns nothing of where it was opened. */
const REL = 'nofollow ugc noopener noreferrer';

const HEADINGS = [S.h1, S.h2, S.h3, S.h4, S.h4, S.h4];

/**
 * React 19 writes a `<link rel="preload">` for each <img> it renders on the server unless the
 * image says it is not urgent; an e-mail may have no <link> (https://www.caniemail.com/features/html-link/),
 * and mail apps ignore fetchpriority. (loading="lazy" would do it too, but caniemail.com lists it.)
 */
const NO_PRELOAD = { fetchPriority: 'low' } as const;

/** What the blocks need of the view: where links point. */
type Env = Pick<NewsletterView, 'publicUrl' | 'pageUrl'>;

/** The sections, each heading and its blocks, in order. */
export function EmailContent({ view }: { view: NewsletterView }): ReactNode {
  const blocks = view.sections.flatMap((s) => (s.heading ? [s.heading, ...s.blocks] : s.blocks));
  return h(Fragment, null, ...blocks.map((block, i) => emailBlock(block, view, i)));
}

function emailBlock(block: ViewBlock, env: Env, key: number, tight = false): ReactNode {
  switch (block.type) {
    case 'heading':
      return h(`h${Math.min(block.level, 6)}`, { key, style: HEADINGS[block.level - 1] }, inlines(block.content, env));
    case 'paragraph': {
      if (block.gallery) return gallery(block.content, env, key);
      return tight ? h(Fragment, { key }, inlines(block.content, env)) : h('p', { key, style: S.p }, inlines(block.content, env));
    }
    case 'list':
      return h(
        block.ordered ? 'ol' : 'ul',
        { key, style: S.list, ...(block.ordered && block.start !== 1 ? { start: block.start } : {}) },
        block.items.map((item, i) =>
          h(
            'li',
            { key: i, style: S.li },
            item.map((b, j) => emailBlock(b, env, j, block.tight)),
          ),
        ),
      );
    case 'quote':
      return h(
        'blockquote',
        { key, style: S.quote },
        block.blocks.map((b, i) => emailBlock(b, env, i)),
      );
    case 'code':
      return h('pre', { key, style: S.pre }, h('code', { style: S.code }, block.text));
    case 'rule':
      return h('hr', { key, style: S.hr });
    case 'table': {
      const rows = (header: boolean) =>
        block.rows
          .filter((row) => row.header === header)
          .map((row, i) =>
            h(
              'tr',
              { key: i },
              // A space after each cell keeps the plain text's cells apart ("a b"), as the page's line breaks do.
              row.cells.map((cell, j) => h(header ? 'th' : 'td', { key: j, style: header ? S.th : S.td }, ...inlines(cell, env), ' ')),
            ),
          );
      return h('table', { key, style: S.table }, h('thead', null, rows(true)), h('tbody', null, rows(false)));
    }
  }
}

/** A paragraph of nothing but photos: one full width, or tiles two to a row with no line breaks between them. */
function gallery(content: ViewInline[], env: Env, key: number): ReactNode {
  const shown = content.filter((c) => c.type === 'photo');
  if (shown.length === 0) return null;
  return h(
    'p',
    { key, style: S.gallery },
    shown.map((c, i) => photo(c, env, i)),
  );
}

function inlines(content: readonly ViewInline[], env: Env): ReactNode[] {
  return content.map((c, i) => inline(c, env, i));
}

function inline(c: ViewInline, env: Env, key: number): ReactNode {
  switch (c.type) {
    case 'text':
      return c.text;
    case 'break':
      return h('br', { key });
    case 'code':
      return h('code', { key, style: S.code }, c.text);
    case 'strong':
    case 'em':
    case 's':
      return h(c.type, { key }, inlines(c.children, env));
    case 'link':
      return c.href === null
        ? h(Fragment, { key }, inlines(c.children, env))
        : h('a', { key, href: absolute(c.href, env), rel: REL, style: S.a }, inlines(c.children, env));
    case 'photo':
      return photo(c, env, key);
    case 'picture':
      // A picture from elsewhere on the web is left out: its size is unknown, and a remote image
      // would tell its owner who opened the newsletter. The page shows it.
      return null;
    case 'clip':
      return clip(c.clip, c.caption, env, key);
  }
}

/**
 * A member's photo, linking to its largest size: one stored size, twice the drawn width, at its own
 * ratio. Its caption is under the link, not in it: words, not part of a picture's link.
 */
function photo(c: Extract<ViewInline, { type: 'photo' }>, env: Env, key: number): ReactNode {
  const href = absolute(c.photo.url, env);
  const image = h('img', photoImage(c.photo, c.alt, c.tile, env));
  if (c.caption === null) return h('a', { key, href, rel: REL, className: 'l-photo', style: c.tile ? S.tile : S.photoLink }, image);
  return h(
    'span',
    c.tile ? { key, style: S.tile } : { key, className: 'l-block', style: { display: 'block' } },
    h('a', { href, rel: REL, className: 'l-photo', style: S.photoLink }, image),
    h('span', { className: 'l-block l-caption', style: S.caption }, c.caption),
  );
}

function photoImage(p: Photo, alt: string, tile: boolean, env: Env) {
  const shown = tile ? TILE : COLUMN;
  // Twice the drawn width for sharp phones and retina screens, from the widths that are stored.
  const width = Math.min(shown, p.width || shown);
  const height = p.width && p.height ? Math.round((p.height * width) / p.width) : undefined;
  const style: CSSProperties = tile
    ? { display: 'block', width: '100%', maxWidth: `${TILE}px`, height: 'auto', border: '0', borderRadius: '8px' }
    : { display: 'block', width: '100%', maxWidth: `${width}px`, height: 'auto', border: '0', borderRadius: '8px', margin: '0 auto' };
  return {
    ...NO_PRELOAD,
    src: absolute(photoAtLeast(p, shown * 2), env),
    alt: alt || 'Photo',
    width: String(width),
    ...(height ? { height: String(height) } : {}),
    style,
  };
}

/** A voice memo or video: one link to the page, where it plays; a video shows its poster picture. */
function clip(c: Clip, caption: string | null, env: Env, key: number): ReactNode {
  let player: ReactNode;
  if (c.kind === 'video' && c.poster) {
    const width = c.width || COLUMN;
    const height = c.height || Math.round((COLUMN * 9) / 16);
    const shown = Math.min(COLUMN - 26, width);
    player = h('img', {
      ...NO_PRELOAD,
      src: absolute(c.poster, env),
      alt: 'Video: play it on the newsletter’s page',
      width: String(shown),
      height: String(Math.round((height * shown) / width)),
      style: {
        display: 'block',
        width: '100%',
        maxWidth: `${shown}px`,
        height: 'auto',
        border: '0',
        borderRadius: '8px',
        margin: '0 0 8px',
      },
    });
  } else {
    player = h(
      'span',
      { className: 'l-block', style: S.block },
      c.kind === 'audio' ? '▶ Listen on the newsletter’s page' : '▶ Watch on the newsletter’s page',
    );
  }
  return h(
    'a',
    { key, href: env.pageUrl, className: 'l-clip', style: S.clip },
    player,
    caption === null ? null : h('span', { className: 'l-block', style: S.clipCaption }, caption),
    h('span', { className: 'l-block l-label', style: S.clipLabel }, clipLabel(c)),
  );
}

/** Every address works from an inbox: our own paths become PUBLIC_URL's. */
export function absolute(url: string, env: Pick<Env, 'publicUrl'>): string {
  return url.startsWith('/') ? `${env.publicUrl}${url}` : url;
}
