import MarkdownIt from 'markdown-it';
import type { StateCore, Token } from 'markdown-it';
import { Schema, type MarkType, type Node as PMNode, type NodeType } from 'prosemirror-model';
import {
  defaultMarkdownSerializer,
  MarkdownParser,
  MarkdownSerializer,
  schema as markdownSchema,
  type MarkdownSerializerState,
} from 'prosemirror-markdown';
import { isAllowedNewsletterUrl, MEDIA_PATH } from '@loop/shared/newsletter-paths';

/**
 * The newsletter's stored Markdown as a ProseMirror document and back (decision 0041). The
 * tokenizer is markdown-it set up as the public page sets it up (apps/server/src/publishing/
 * render-markdown.ts: no HTML, single newlines are line breaks, links only to the web or our own
 * /media), so the editor sees exactly the structure the page will draw.
 *
 * A paragraph of nothing but pictures (photos, voice memos, videos: `![alt](/media/key "caption")`)
 * is a `gallery` block of `media` blocks: each one shown as itself, dragged, moved, removed and
 * captioned on its own, and written back as the one paragraph the page turns into a gallery.
 * The caption is the Markdown image title.
 */
export const newsletterSchema = new Schema({
  nodes: markdownSchema.spec.nodes
    .addBefore('image', 'gallery', {
      content: 'media+',
      group: 'block',
      toDOM: () => ['div', { class: 'rich-gallery' }, 0],
    })
    .addBefore('image', 'media', {
      attrs: { src: { default: '' }, alt: { default: '' }, title: { default: '' } },
      atom: true,
      draggable: true,
      selectable: true,
      toDOM: (node) => ['div', { 'data-media': node.attrs.src as string }],
    }),
  marks: markdownSchema.spec.marks,
});

function nodeType(name: string): NodeType {
  const type = newsletterSchema.nodes[name];
  if (!type) throw new Error(`no node ${name}`);
  return type;
}
function markType(name: string): MarkType {
  const type = newsletterSchema.marks[name];
  if (!type) throw new Error(`no mark ${name}`);
  return type;
}

/** The schema's node and mark types by name. */
export const nodes = {
  paragraph: nodeType('paragraph'),
  heading: nodeType('heading'),
  bulletList: nodeType('bullet_list'),
  orderedList: nodeType('ordered_list'),
  listItem: nodeType('list_item'),
  rule: nodeType('horizontal_rule'),
  gallery: nodeType('gallery'),
  media: nodeType('media'),
};
export const marks = { strong: markType('strong'), em: markType('em'), link: markType('link') };

/** As the public page's markdown-it (render-markdown.ts). */
export function newsletterMarkdownIt() {
  const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });
  md.validateLink = isAllowedNewsletterUrl;
  md.core.ruler.push('loop_gallery', galleries);
  return md;
}

const tokenizer = newsletterMarkdownIt();

/** A paragraph of nothing but images becomes gallery_open, media..., gallery_close. */
function galleries(state: StateCore) {
  const out: Token[] = [];
  for (let i = 0; i < state.tokens.length; i++) {
    const token = state.tokens[i]!;
    const inline = state.tokens[i + 1];
    const close = state.tokens[i + 2];
    const children = inline?.children ?? [];
    if (token.type === 'paragraph_open' && inline?.type === 'inline' && close && onlyImages(children)) {
      out.push(retype(token, 'gallery_open'));
      for (const child of children) if (child.type === 'image') out.push(retype(child, 'media'));
      out.push(retype(close, 'gallery_close'));
      i += 2;
    } else {
      out.push(token);
    }
  }
  state.tokens = out;
}

function onlyImages(children: Token[]): boolean {
  return (
    children.some((c) => c.type === 'image') &&
    children.every((c) => c.type === 'image' || c.type === 'softbreak' || (c.type === 'text' && c.content.trim() === ''))
  );
}

function retype(token: Token, type: string): Token {
  token.type = type;
  return token;
}

/** The alt text as the page writes it: the label's words without markup. */
function altOf(token: Token): string {
  return (token.children ?? []).map((c) => (c.type === 'softbreak' || c.type === 'hardbreak' ? ' ' : c.content)).join('');
}

const parser = new MarkdownParser(newsletterSchema, tokenizer, {
  blockquote: { block: 'blockquote' },
  paragraph: { block: 'paragraph' },
  list_item: { block: 'list_item' },
  bullet_list: { block: 'bullet_list', getAttrs: (_tok, tokens, i) => ({ tight: listIsTight(tokens, i) }) },
  ordered_list: {
    block: 'ordered_list',
    getAttrs: (tok, tokens, i) => ({ order: Number(tok.attrGet('start') ?? 1), tight: listIsTight(tokens, i) }),
  },
  heading: { block: 'heading', getAttrs: (tok) => ({ level: Number(tok.tag.slice(1)) }) },
  code_block: { block: 'code_block', noCloseToken: true },
  fence: { block: 'code_block', getAttrs: (tok) => ({ params: tok.info || '' }), noCloseToken: true },
  hr: { node: 'horizontal_rule' },
  gallery: { block: 'gallery' },
  media: { node: 'media', getAttrs: (tok) => ({ src: tok.attrGet('src') ?? '', alt: altOf(tok), title: tok.attrGet('title') ?? '' }) },
  image: { node: 'image', getAttrs: (tok) => ({ src: tok.attrGet('src'), title: tok.attrGet('title') || null, alt: altOf(tok) || null }) },
  hardbreak: { node: 'hard_break' },
  softbreak: { node: 'hard_break' },
  em: { mark: 'em' },
  strong: { mark: 'strong' },
  link: { mark: 'link', getAttrs: (tok) => ({ href: tok.attrGet('href'), title: tok.attrGet('title') || null }) },
  code_inline: { mark: 'code', noCloseToken: true },
  s: { ignore: true },
});

function listIsTight(tokens: readonly Token[], i: number): boolean {
  while (++i < tokens.length) if (tokens[i]!.type !== 'list_item_open') return tokens[i]!.hidden;
  return false;
}

/** Markdown → document. Disallowed links stay text, as the page shows them. */
export function parseNewsletter(markdown: string): PMNode {
  return parser.parse(markdown);
}

const escapeLabel = (text: string) => text.replace(/[\\[\]]/g, '\\$&').replace(/\s+/g, ' ');
const quoteTitle = (title: string) => (title ? ` "${title.replace(/["\\]/g, '\\$&').replace(/\s+/g, ' ')}"` : '');

function writeImage(state: MarkdownSerializerState, node: PMNode) {
  const src = String(node.attrs.src).replace(/[()]/g, '\\$&');
  state.write(`![${escapeLabel(String(node.attrs.alt ?? ''))}](${src}${quoteTitle(String(node.attrs.title ?? ''))})`);
}

const serializer = new MarkdownSerializer(
  {
    ...defaultMarkdownSerializer.nodes,
    gallery(state, node) {
      node.forEach((child, _offset, index) => {
        if (index > 0) state.write(' ');
        writeImage(state, child);
      });
      state.closeBlock(node);
    },
    media: writeImage,
    image: writeImage,
    // Single newlines are line breaks on the page (breaks: true), so a break is written as one.
    hard_break(state, node, parent, index) {
      for (let i = index + 1; i < parent.childCount; i++) {
        if (parent.child(i).type !== node.type) {
          state.write('\n');
          return;
        }
      }
    },
  },
  defaultMarkdownSerializer.marks,
);

/** Document → the Markdown that is saved. */
export function serializeNewsletter(doc: PMNode): string {
  return `${serializer.serialize(doc)}\n`;
}

export type MediaKind = 'photo' | 'audio' | 'video';

/** What a /media/ picture is when the server has not said yet: the writer's alt text tells (template-writer.ts). */
export function guessMediaKind(src: string, alt: string): MediaKind {
  if (!MEDIA_PATH.test(src)) return 'photo';
  if (/^voice memo\b/i.test(alt)) return 'audio';
  if (/^video\b/i.test(alt)) return 'video';
  return 'photo';
}
