import { escapeHtml } from './html';
import { formatPeriod } from './period-label';
import type { NewsletterPageInput } from './public-page';
import { markdownToPlainText } from './render-markdown';

export interface NewsletterEmailInput extends Omit<NewsletterPageInput, 'archivePath' | 'script'> {
  unsubscribeUrl: string;
  /** The member's own reply address ("Reply to this e-mail with your news"); null: no reply line. */
  replyAddress: string | null;
}

export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

/**
 * A newsletter as an e-mail (MAIL-CONTRACT). A minimal stand-in with the contract's signature:
 * helper h-mailhtml's renderer (the e-mail design, decision record of its own) replaces this file
 * at merge. Plain text and simple HTML of the same words, the link to the page, and unsubscribe.
 */
export function renderNewsletterEmail(input: NewsletterEmailInput): Promise<RenderedEmail> {
  const { newsletter, loop } = input;
  const period = formatPeriod(newsletter.periodStart ?? newsletter.periodEnd, newsletter.periodEnd, loop.timeZone);
  const subject = newsletter.title || `${loop.name}: ${period}`;
  const words = markdownToPlainText(newsletter.content);
  const reply = input.replyAddress ? `Reply to this email with your news.` : '';
  const text = [subject, words, `Read it with its photos: ${input.pageUrl}`, reply, `Unsubscribe: ${input.unsubscribeUrl}`]
    .filter((part) => part !== '')
    .join('\n\n');
  const paragraphs = words
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('\n');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:16px;font-family:Georgia,serif;line-height:1.5;max-width:640px">
<h1 style="font-size:24px">${escapeHtml(subject)}</h1>
${paragraphs}
<p><a href="${escapeHtml(input.pageUrl)}">Read it with its photos</a></p>
${reply ? `<p>${escapeHtml(reply)}</p>` : ''}
<p style="font-size:12px;color:#666"><a href="${escapeHtml(input.unsubscribeUrl)}">Unsubscribe</a></p>
</body></html>`;
  return Promise.resolve({ subject, html, text });
}
