import { randomBytes } from 'node:crypto';
import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { render, toPlainText } from '@react-email/components';
import { createElement as h, type CSSProperties, type ReactNode } from 'react';
import sanitizeHtml from 'sanitize-html';
import { MEDIA_PATH } from '@loop/shared/newsletters';
import { escapeHtml } from './html';
import { formatPeriod } from './period-label';
import type { NewsletterPageInput } from './public-page';
import { markdownToPlainText, PHOTO_SIZES, renderMarkdown } from './render-markdown';

export interface NewsletterEmailInput extends Omit<NewsletterPageInput, 'archivePath' | 'script'> {
  unsubscribeUrl: string;
  /** The member's own reply address ("Reply to this e-mail with your news"); null: no reply line. */
  replyAddress: string | null;
  /** The member's own link to the Loop's past issues (decision 0053); none: no link. */
  archiveUrl?: string;
}
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/** The line under the footer's links when the member can reply with news (decision 0049). */
export const REPLY_LINE = 'Reply to this e-mail with your news: text and photos become updates for the next issue.';

/** How wide the content column is drawn (px): the container is 600, less 2 × 20 padding. */
const COLUMN = 560;
/** A gallery tile: two to a row, each just under half the column, so they wrap to one a row below 320 px. */
const TILE = 272;

// The public page's palette (newsletter.css), and its dark counterpart for mail apps that honour
// prefers-color-scheme (Apple Mail, Outlook for Mac/iOS); Gmail and Outlook.com invert on their own.
const C = { paper: '#fffdf8', ink: '#2b2622', muted: '#6f6259', accent: '#a3442a', line: '#ecdfd3', wash: '#f6ece2' };
const SANS = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";
const SERIF = "Georgia, 'Iowan Old Style', 'Times New Roman', serif";

/**
 * Styles in <head>: only what cannot be inline (dark mode, the phone width). Every client that
 * drops <style> (Gmail with a non-Google account, older Outlook) still gets the inline styles.
 * https://www.caniemail.com/features/css-at-media-prefers-color-scheme/
 * https://www.caniemail.com/features/html-style/
 */
const HEAD_STYLE = `:root{color-scheme:light dark;supported-color-schemes:light dark}
@media (max-width:480px){.l-pad{padding-left:16px!important;padding-right:16px!important}.l-title{font-size:28px!important}}
@media (prefers-color-scheme:dark){
.l-wash{background-color:#171412!important}
.l-paper{background-color:#221e1b!important;border-color:#3a332e!important}
.l-ink,.l-ink p,.l-ink li,.l-ink h2,.l-ink h3,.l-ink blockquote{color:#efe7df!important}
.l-muted,.l-muted p{color:#b8aca2!important}
.l-ink a,.l-muted a,a.l-link{color:#f0a88f!important}
.l-clip{background-color:#2c2622!important;border-color:#3a332e!important}
.l-clip span,.l-ink .l-clip span{color:#efe7df!important}
.l-ink span.l-label{color:#f0a88f!important}
.l-ink span.l-caption{color:#b8aca2!important}
hr.l-hr{border-color:#3a332e!important}
}
[data-ogsc] .l-ink,[data-ogsc] .l-ink p,[data-ogsc] .l-ink li{color:#efe7df!important}
[data-ogsc] .l-ink a,[data-ogsc] a.l-link{color:#f0a88f!important}
[data-ogsb] .l-wash{background-color:#171412!important}
[data-ogsb] .l-paper{background-color:#221e1b!important}`;

/** Inline styles for what the Markdown renders: Gmail keeps inline styles everywhere. */
const TAG_STYLES: Record<string, string> = {
  p: `margin:0 0 16px;font-family:${SANS};font-size:17px;line-height:1.6;color:${C.ink}`,
  h1: `margin:28px 0 10px;font-family:${SERIF};font-size:26px;line-height:1.25;font-weight:700;color:${C.ink}`,
  h2: `margin:28px 0 10px;font-family:${SERIF};font-size:23px;line-height:1.3;font-weight:700;color:${C.ink}`,
  h3: `margin:22px 0 8px;font-family:${SERIF};font-size:19px;line-height:1.3;font-weight:700;color:${C.ink}`,
  h4: `margin:18px 0 6px;font-family:${SANS};font-size:17px;font-weight:700;color:${C.ink}`,
  h5: `margin:18px 0 6px;font-family:${SANS};font-size:17px;font-weight:700;color:${C.ink}`,
  h6: `margin:18px 0 6px;font-family:${SANS};font-size:17px;font-weight:700;color:${C.ink}`,
  ul: `margin:0 0 16px;padding:0 0 0 24px;font-family:${SANS};font-size:17px;line-height:1.6;color:${C.ink}`,
  ol: `margin:0 0 16px;padding:0 0 0 24px;font-family:${SANS};font-size:17px;line-height:1.6;color:${C.ink}`,
  li: `margin:0 0 6px;color:${C.ink}`,
  blockquote: `margin:0 0 16px;padding:2px 0 2px 16px;border-left:3px solid ${C.line};color:${C.muted};font-style:italic`,
  a: `color:${C.accent};text-decoration:underline`,
  hr: `border:0;border-top:1px solid ${C.line};margin:28px 0`,
  code: `font-family:Menlo,Consolas,monospace;font-size:15px`,
  pre: `white-space:pre-wrap;font-family:Menlo,Consolas,monospace;font-size:15px;margin:0 0 16px`,
  table: `border-collapse:collapse;margin:0 0 16px;font-family:${SANS};font-size:16px`,
  th: `border:1px solid ${C.line};padding:6px 8px;text-align:left`,
  td: `border:1px solid ${C.line};padding:6px 8px`,
};

interface EmailEnv {
  publicUrl: string;
  pageUrl: string;
}

/**
 * The public page's sanitized HTML (render-markdown.ts) made fit for mail: absolute addresses,
 * one sized photo (no srcset, which most mail apps ignore) with width, height and alt, voice memos
 * and videos as a link to the page (no mail app plays <audio>/<video> reliably:
 * https://www.caniemail.com/features/html-audio/, https://www.caniemail.com/features/html-video/),
 * and inline styles. Runs on output that was already sanitized, so it adds no new way in.
 */
function emailContent(pageHtml: string, env: EmailEnv): string {
  // A gallery tile is told apart by its photo's sizes (render-markdown.ts): the tile is the captioned
  // photo's box (photo-item: the link, then the caption as words), else the photo's link itself.
  const html = pageHtml
    .replace(/<span class="photo-item">(?=<a class="photo" href="[^"]*"[^>]*><img [^>]*>)/g, (whole: string, at: number) =>
      pageHtml.slice(at, pageHtml.indexOf('</a>', at)).includes(`sizes="${PHOTO_SIZES.tile}"`) ? '<span class="photo-item-tile">' : whole,
    )
    .replace(/(?<!<span class="photo-item(?:-tile)?">)<a class="photo"( href="[^"]*"[^>]*><img [^>]*>)/g, (_, rest: string) =>
      rest.includes(`sizes="${PHOTO_SIZES.tile}"`) ? `<a class="photo-tile"${rest}` : `<a class="photo"${rest}`,
    );
  const absolute = (url: string) => (url.startsWith('/') ? `${env.publicUrl}${url}` : url);
  const styled = (tagName: string, attribs: sanitizeHtml.Attributes) => {
    const style = TAG_STYLES[tagName];
    return { tagName, attribs: style ? { ...attribs, style } : attribs };
  };
  const transformTags: Record<string, sanitizeHtml.Transformer> = Object.fromEntries(
    Object.keys(TAG_STYLES).map((tag) => [tag, (tagName: string, attribs: sanitizeHtml.Attributes) => styled(tagName, attribs)]),
  );
  transformTags.a = (tagName, attribs) => {
    const tile = attribs.class === 'photo-tile';
    const photo = tile || attribs.class === 'photo';
    // A photo links to its own largest size; a picture from elsewhere goes, link and all (below).
    const href = attribs.href && (!photo || MEDIA_PATH.test(attribs.href)) ? absolute(attribs.href) : undefined;
    return {
      tagName,
      attribs: {
        ...(href ? { href } : {}),
        ...(attribs.rel ? { rel: attribs.rel } : {}),
        // A gallery tile holds its photo and caption together, two to a row.
        style: tile
          ? `display:inline-block;width:48%;max-width:${TILE}px;margin:0 1% 8px;vertical-align:top;text-decoration:none;color:inherit`
          : photo
            ? 'text-decoration:none;color:inherit'
            : TAG_STYLES.a!,
        ...(photo ? { class: 'l-photo' } : {}),
      },
    };
  };
  transformTags.p = (tagName, attribs) => ({
    tagName,
    attribs:
      attribs.class === 'gallery' ? { style: `margin:0 0 12px;font-size:0;line-height:0;text-align:center` } : { style: TAG_STYLES.p! },
  });
  transformTags.img = (tagName, attribs) => imgForMail(attribs, absolute);
  transformTags.span = (tagName, attribs): sanitizeHtml.Tag => {
    switch (attribs.class) {
      case 'clip':
        // The whole clip is one link to the page, where it plays.
        return {
          tagName: 'a',
          attribs: {
            href: env.pageUrl,
            class: 'l-clip',
            style: `display:block;margin:0 0 16px;padding:12px;border:1px solid ${C.line};border-radius:12px;background-color:${C.wash};color:${C.ink};text-decoration:none;font-family:${SANS};font-size:16px;line-height:1.4`,
          },
        };
      case 'clip-label':
        return {
          tagName: 'span',
          attribs: { class: 'l-block l-label', style: `display:block;color:${C.accent};font-weight:700;text-decoration:underline` },
        };
      case 'clip-caption':
        return { tagName: 'span', attribs: { class: 'l-block', style: `display:block;margin:6px 0 2px;color:${C.ink}` } };
      case 'photo-item-tile':
        return {
          tagName: 'span',
          attribs: { style: `display:inline-block;width:48%;max-width:${TILE}px;margin:0 1% 8px;vertical-align:top` },
        };
      case 'photo-item':
        return { tagName: 'span', attribs: { class: 'l-block', style: 'display:block' } };
      case 'photo-caption':
        return {
          tagName: 'span',
          attribs: {
            class: 'l-block l-caption',
            style: `display:block;margin:6px 0 0;font-family:${SANS};font-size:15px;line-height:1.4;color:${C.muted};text-align:left`,
          },
        };
      default:
        return { tagName, attribs: {} };
    }
  };
  // A voice memo becomes words on its link; a video its poster picture, or words when it has none.
  transformTags.audio = () => ({
    tagName: 'span',
    attribs: { class: 'l-block', style: 'display:block' },
    text: '▶ Listen on the newsletter’s page',
  });
  transformTags.video = (tagName, attribs): sanitizeHtml.Tag => {
    const poster = attribs.poster;
    if (!poster)
      return { tagName: 'span', attribs: { class: 'l-block', style: 'display:block' }, text: '▶ Watch on the newsletter’s page' };
    const width = Number(attribs.width) || COLUMN;
    const height = Number(attribs.height) || Math.round((COLUMN * 9) / 16);
    const shown = Math.min(COLUMN - 26, width);
    return {
      tagName: 'img',
      attribs: {
        src: absolute(poster),
        alt: 'Video: play it on the newsletter’s page',
        width: String(shown),
        height: String(Math.round((height * shown) / width)),
        style: `display:block;width:100%;max-width:${shown}px;height:auto;border:0;border-radius:8px;margin:0 0 8px`,
      },
    };
  };
  const mailHtml = sanitizeHtml(html, {
    allowedTags: [...Object.keys(TAG_STYLES), 'br', 'strong', 'em', 's', 'del', 'span', 'img', 'thead', 'tbody', 'tr'],
    allowedAttributes: {
      '*': ['style', 'class'],
      a: ['href', 'rel', 'target', 'style', 'class'],
      img: ['src', 'alt', 'width', 'height', 'style'],
      ol: ['start', 'style'],
    },
    allowedSchemes: ['http', 'https'],
    allowProtocolRelative: false,
    allowedClasses: { a: ['l-clip', 'l-photo'], span: ['l-block', 'l-label', 'l-caption'] },
    transformTags,
    // <audio>/<video> had no text of their own: the transform above gives them some.
    nonTextTags: ['style', 'script', 'textarea', 'option', 'noscript'],
    // A picture from elsewhere on the web (not a member's stored photo) is left out of the e-mail: its
    // size is unknown, and a remote image would tell its owner who opened the newsletter. The page shows it.
    exclusiveFilter: (frame) => (frame.tag === 'img' && !frame.attribs.src) || (frame.attribs.class === 'l-photo' && !frame.attribs.href),
  });
  // A gallery's line breaks (Markdown soft breaks between photos) would stack the tiles.
  return mailHtml.replace(/(<\/a>|<\/span>)\s*<br \/>\s*(?=<a |<span style="display:inline-block)/g, '$1');
}

/** One stored size of a photo, absolute, drawn at the column's or a tile's width with its own height. */
function imgForMail(
  attribs: sanitizeHtml.Attributes,
  absolute: (url: string) => string,
): { tagName: string; attribs: sanitizeHtml.Attributes } {
  const { src = '', srcset, sizes, alt = '' } = attribs;
  if (!MEDIA_PATH.test(src)) return { tagName: 'img', attribs: {} };
  const tile = sizes === PHOTO_SIZES.tile;
  const shown = tile ? TILE : COLUMN;
  const width = Number(attribs.width) || 0;
  const height = Number(attribs.height) || 0;
  // Twice the drawn width for sharp phones and retina screens, from the widths that are stored.
  const widths = (srcset ?? '')
    .split(', ')
    .map((c) => Number(/ (\d+)w$/.exec(c)?.[1]))
    .filter((w) => w > 0);
  const chosen = widths.find((w) => w >= shown * 2) ?? widths.at(-1);
  const file = chosen ? `${src}/${chosen}` : src;
  const drawnWidth = width ? Math.min(shown, width) : shown;
  const drawnHeight = width && height ? Math.round((height * drawnWidth) / width) : undefined;
  const style = tile
    ? `display:block;width:100%;max-width:${TILE}px;height:auto;border:0;border-radius:8px`
    : `display:block;width:100%;max-width:${drawnWidth}px;height:auto;border:0;border-radius:8px;margin:0 auto`;
  return {
    tagName: 'img',
    attribs: {
      src: absolute(file),
      alt: alt || 'Photo',
      width: String(drawnWidth),
      ...(drawnHeight ? { height: String(drawnHeight) } : {}),
      style,
    },
  };
}

// The same newsletter goes to every member; only the unsubscribe link and reply address differ.
// It is rendered once (with markers no member can guess) and the member's values put in after,
// so a 10,000-member send renders React once, not 10,000 times.
const MARK = randomBytes(12).toString('hex');
const UNSUBSCRIBE_MARK = `https://unsubscribe.${MARK}.invalid/`;
const REPLY_MARK = `reply-${MARK}@reply.invalid`;
const ARCHIVE_MARK = `https://archive.${MARK}.invalid/`;
// Outlook for Windows (Word) ignores max-width: a fixed 600 px table there only, in its conditional comments.
// https://www.caniemail.com/features/css-max-width/
const MSO_OPEN = `mso-open-${MARK}`;
const MSO_CLOSE = `mso-close-${MARK}`;
const OUTLOOK_COLUMN_OPEN =
  '<!--[if mso]><table role="presentation" width="600" align="center" cellpadding="0" cellspacing="0" border="0"><tr><td><![endif]-->';
const OUTLOOK_COLUMN_CLOSE = '<!--[if mso]></td></tr></table><![endif]-->';
const shells = new Map<string, Promise<RenderedEmail>>();
const SHELLS_KEPT = 8;

/** The newsletter as an e-mail: subject, HTML and plain text (decision 0048). */
export async function renderNewsletterEmail(input: NewsletterEmailInput): Promise<RenderedEmail> {
  const key = JSON.stringify([
    input.newsletter,
    input.loop,
    input.pageUrl,
    input.publicUrl,
    [...input.photos],
    [...(input.clips ?? [])],
    input.replyAddress !== null,
    input.archiveUrl !== undefined,
    input.cover ?? null,
  ]);
  let shell = shells.get(key);
  if (!shell) {
    shell = renderShell({
      ...input,
      unsubscribeUrl: UNSUBSCRIBE_MARK,
      replyAddress: input.replyAddress === null ? null : REPLY_MARK,
      ...(input.archiveUrl === undefined ? {} : { archiveUrl: ARCHIVE_MARK }),
    });
    shells.set(key, shell);
    if (shells.size > SHELLS_KEPT) shells.delete(shells.keys().next().value!);
    shell.catch(() => shells.delete(key));
  }
  const { subject, html, text } = await shell;
  const fill = (s: string, escape: (v: string) => string) =>
    s
      .replaceAll(UNSUBSCRIBE_MARK, escape(input.unsubscribeUrl))
      .replaceAll(REPLY_MARK, escape(input.replyAddress ?? ''))
      .replaceAll(ARCHIVE_MARK, escape(input.archiveUrl ?? ''));
  return { subject, html: fill(html, escapeHtml), text: fill(text, (v) => v) };
}

async function renderShell(input: NewsletterEmailInput): Promise<RenderedEmail> {
  const { newsletter, loop } = input;
  const period = formatPeriod(newsletter.periodStart ?? newsletter.periodEnd, newsletter.periodEnd, loop.timeZone);
  const kicker = newsletter.kind === 'sneak_peek' ? 'Sneak peek' : 'Newsletter';
  // The public page's title (renderNewsletterPage): the newsletter's own, else the Loop's name and the period.
  const subject = newsletter.title || `${newsletter.kind === 'sneak_peek' ? 'Sneak peek: ' : ''}${loop.name}: ${period}`;
  const content = emailContent(renderMarkdown(newsletter.content, input.photos, input.clips), {
    publicUrl: input.publicUrl,
    pageUrl: input.pageUrl,
  });
  const preview = markdownToPlainText(newsletter.content).slice(0, 140);
  const element = h(EmailDocument, { input, kicker, period, subject, content, preview });
  const html = (await render(element)).replace(MSO_OPEN, OUTLOOK_COLUMN_OPEN).replace(MSO_CLOSE, OUTLOOK_COLUMN_CLOSE);
  // The plain text names each photo and gives its address: a reader of plain text opens it there.
  const forText = html.replace(
    /<a href="([^"]*)"[^>]*class="l-photo"[^>]*>[\s\S]*?<img [^>]*?alt="([^"]*)"[\s\S]*?<\/a>/g,
    (_, href: string, alt: string) => `<span class="l-block">${alt}: ${href}</span>`,
  );
  const body = toPlainText(forText, {
    selectors: [
      { selector: '.l-masthead', format: 'skip' },
      { selector: 'a.l-photo', format: 'skip' },
      { selector: 'span.l-block', format: 'block' },
      { selector: 'h1', options: { uppercase: false } },
      { selector: 'h2', options: { uppercase: false } },
      { selector: 'h3', options: { uppercase: false } },
      { selector: '[data-skip-in-text=true]', format: 'skip' },
    ],
  });
  const photos = /<img /.test(content) ? ', with its photos' : '';
  const text = `${subject}\n\nRead it on the web${photos}: ${input.pageUrl}\n\n${body.trim().replace(/\n{3,}/g, '\n\n')}\n`;
  return { subject, html, text };
}

/** The Loop's cover photo at the column's width, its own height: a stored size twice as wide where there is one. */
function coverImage(cover: NonNullable<NewsletterEmailInput['cover']>): ReactNode {
  const width = Math.min(COLUMN, cover.width);
  const height = Math.round((cover.height * width) / cover.width);
  return h('img', {
    src: cover.url,
    alt: cover.alt,
    width,
    height,
    className: 'l-cover',
    style: {
      display: 'block',
      width: '100%',
      maxWidth: `${width}px`,
      height: 'auto',
      border: '0',
      borderRadius: '12px',
      margin: '0 auto 16px',
    },
  });
}

interface DocumentProps {
  input: NewsletterEmailInput;
  kicker: string;
  period: string;
  subject: string;
  content: string;
  preview: string;
}

const footerText: CSSProperties = { margin: '0 0 10px', fontFamily: SANS, fontSize: '15px', lineHeight: '1.5', color: C.muted };
const footerLink: CSSProperties = { color: C.accent, textDecoration: 'underline' };

function EmailDocument({ input, kicker, period, subject, content, preview }: DocumentProps): ReactNode {
  const { loop } = input;
  return h(
    Html,
    { lang: 'en', dir: 'ltr' },
    h(
      Head,
      null,
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('meta', { name: 'supported-color-schemes', content: 'light dark' }),
      h('title', null, subject),
      h('style', { dangerouslySetInnerHTML: { __html: HEAD_STYLE } }),
    ),
    h(Preview, null, preview),
    h(
      Body,
      { style: { margin: '0', padding: '0', backgroundColor: C.wash } },
      // The wash is on a <div> too: Gmail drops <body>'s styles (https://www.caniemail.com/features/html-body/).
      h(
        'div',
        { className: 'l-wash', style: { backgroundColor: C.wash, padding: '16px 8px' } },
        MSO_OPEN,
        h(
          Container,
          { style: { width: '100%', maxWidth: '600px', margin: '0 auto' } },
          h(
            Section,
            {
              className: 'l-paper',
              style: { backgroundColor: C.paper, borderRadius: '16px', border: `1px solid ${C.line}` },
            },
            h(
              'div',
              { className: 'l-pad l-masthead', style: { padding: '28px 20px 8px', textAlign: 'center' } },
              input.cover ? coverImage(input.cover) : null,
              h(
                Text,
                {
                  className: 'l-muted',
                  style: {
                    margin: '0 0 6px',
                    fontFamily: SANS,
                    fontSize: '13px',
                    letterSpacing: '0.12em',
                    textTransform: 'uppercase',
                    color: C.accent,
                    fontWeight: 700,
                  },
                },
                kicker,
              ),
              h(
                'h1',
                {
                  className: 'l-ink l-title',
                  style: { margin: '0 0 6px', fontFamily: SERIF, fontSize: '34px', lineHeight: '1.15', fontWeight: 700, color: C.ink },
                },
                loop.name,
              ),
              h(Text, { className: 'l-muted', style: { margin: '0', fontFamily: SANS, fontSize: '16px', color: C.muted } }, period),
            ),
            h(Hr, {
              className: 'l-hr l-masthead',
              style: { border: '0', borderTop: `1px solid ${C.line}`, margin: '20px 20px 0', width: 'auto' },
            }),
            h('div', { className: 'l-ink l-pad', style: { padding: '0 20px 8px' }, dangerouslySetInnerHTML: { __html: content } }),
          ),
          h(
            Section,
            { className: 'l-muted', style: { padding: '20px 20px 8px', textAlign: 'center' } },
            input.replyAddress !== null ? h(Text, { style: { ...footerText, color: C.ink, fontSize: '16px' } }, REPLY_LINE) : null,
            h(
              Text,
              { style: footerText },
              h(Link, { href: input.pageUrl, className: 'l-link', style: footerLink }, 'Read it on the web'),
              ' · ',
              ...(input.archiveUrl === undefined
                ? []
                : [h(Link, { href: input.archiveUrl, className: 'l-link', style: footerLink }, 'All past issues'), ' · ']),
              h(Link, { href: input.unsubscribeUrl, className: 'l-link', style: footerLink }, 'Unsubscribe'),
            ),
            h(
              Text,
              { style: { ...footerText, fontSize: '13px' } },
              `You get this because you are in ${loop.name} on Loop. Loop turns a group's text messages into newsletters.`,
            ),
          ),
        ),
        MSO_CLOSE,
      ),
    ),
  );
}
