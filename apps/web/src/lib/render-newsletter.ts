import MarkdownIt from 'markdown-it';
import { isAllowedNewsletterUrl } from '@loop/shared/newsletters';

// As the public page renders it (apps/server/src/publishing/render-markdown.ts): HTML in the
// Markdown stays text (html: false), and links and photos may only point at the web or our own
// /media, so nothing a member wrote becomes markup, script or a javascript: link.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });
md.validateLink = isAllowedNewsletterUrl;

const renderLink = md.renderer.rules.link_open;
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  tokens[idx]?.attrSet('rel', 'nofollow ugc noopener noreferrer');
  tokens[idx]?.attrSet('target', '_blank');
  return renderLink ? renderLink(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
};

/** Newsletter Markdown as safe HTML for staff's View Content. */
export function renderNewsletter(markdown: string): string {
  return md.render(markdown);
}
