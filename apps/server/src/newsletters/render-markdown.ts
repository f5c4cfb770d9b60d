import MarkdownIt from 'markdown-it';
import type { Token } from 'markdown-it';
import sanitizeHtml from 'sanitize-html';
import { isAllowedNewsletterUrl } from '@loop/shared/newsletters';

/** The only URLs a newsletter may point at: the web, and our own photos. */
export const isAllowedUrl = isAllowedNewsletterUrl;

// html: false makes any HTML in the Markdown plain text; the sanitizer below is the second layer.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });

const renderImage = md.renderer.rules.image;
/** A photo is a link to itself: it opens large without JavaScript, and the lightbox script enhances it. */
md.renderer.rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx];
  const src = String(token?.attrGet('src') ?? '');
  const allowed = token !== undefined && isAllowedUrl(src);
  if (allowed) token.attrSet('loading', 'lazy');
  const img = renderImage ? renderImage(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  return allowed ? `<a class="photo" href="${md.utils.escapeHtml(src)}">${img}</a>` : img;
};

/** A paragraph of nothing but photos becomes a gallery. */
md.core.ruler.push('photo_gallery', (state) => {
  state.tokens.forEach((token, i) => {
    const inline = state.tokens[i + 1];
    if (token.type !== 'paragraph_open' || inline?.type !== 'inline') return;
    if (isOnlyPhotos(inline.children ?? [])) token.attrJoin('class', 'gallery');
  });
});

function isOnlyPhotos(children: Token[]): boolean {
  const images = children.filter((c) => c.type === 'image');
  return images.length > 0 && children.every((c) => c.type === 'image' || c.type === 'softbreak' || c.type === 'hardbreak' || (c.type === 'text' && c.content.trim() === ''));
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [
    'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'p', 'br', 'hr', 'strong', 'em', 's', 'del', 'blockquote',
    'ul', 'ol', 'li', 'a', 'img', 'code', 'pre', 'table', 'thead', 'tbody', 'tr', 'th', 'td',
  ],
  allowedAttributes: { a: ['href', 'class', 'rel'], img: ['src', 'alt', 'title', 'loading'], p: ['class'], ol: ['start'] },
  allowedClasses: { a: ['photo'], p: ['gallery'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesByTag: {},
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    a: (tagName, attribs) => {
      const { href, ...rest } = attribs;
      const safe: sanitizeHtml.Attributes = href !== undefined && isAllowedUrl(href) ? { href } : {};
      return { tagName, attribs: { ...rest, ...safe, rel: 'nofollow ugc noopener noreferrer' } };
    },
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      return { tagName, attribs: src !== undefined && isAllowedUrl(src) ? { ...rest, src } : rest };
    },
  },
  // An image whose address was refused is dropped, not left as a broken box.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/**
 * Newsletter Markdown as safe HTML: markdown-it without HTML, then sanitize-html with an allow-list.
 * Nothing a member or an editor writes can become script, an event handler or a javascript: link.
 */
export function renderMarkdown(markdown: string): string {
  return sanitizeHtml(md.render(markdown), SANITIZE);
}

/** The photos a newsletter shows, in order (for the Open Graph image). */
export function findPhotoUrls(markdown: string): string[] {
  const urls: string[] = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'image') {
        const src = String(token.attrGet('src') ?? '');
        if (isAllowedUrl(src)) urls.push(src);
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
    words.push(token.children.map((c) => (c.type === 'text' || c.type === 'code_inline' ? c.content : c.type.endsWith('break') ? ' ' : '')).join(''));
  }
  return words.join(' ').replace(/\s+/g, ' ').trim();
}
