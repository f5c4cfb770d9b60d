import { randomBytes } from 'node:crypto';
import { Body, Container, Head, Hr, Html, Link, Preview, Section, Text } from '@react-email/components';
import { render, toPlainText } from '@react-email/components';
import { createElement as h, type CSSProperties, type ReactNode } from 'react';
import { absolute, C, COLUMN, EmailContent, SANS, SERIF } from './email-content';
import { escapeHtml } from './html';
import type { NewsletterCover, NewsletterView } from './newsletter-view';
import { markdownToPlainText } from './render-markdown';

/** What differs from one member's e-mail to the next. */
export interface EmailMember {
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

// The same newsletter goes to every member; only the unsubscribe link and reply address differ.
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

/**
 * One send of a newsletter by e-mail (decision 0048, 0062): a function that gives each member
 * their e-mail. The same issue goes to every member; only the unsubscribe link, reply address
 * and archive link differ. It is rendered once per send (with markers no member can guess) and
 * each member's values put in after, so a 10,000-member send renders React once, not 10,000
 * times. What is rendered is kept by the send that asked for it, and goes with it.
 */
export function newsletterEmails(view: NewsletterView): (member: EmailMember) => Promise<RenderedEmail> {
  const shells = new Map<string, Promise<RenderedEmail>>();
  return async (member) => {
    const key = `${member.replyAddress !== null}:${member.archiveUrl !== undefined}`;
    let shell = shells.get(key);
    if (!shell) {
      shell = renderShell(view, {
        unsubscribeUrl: UNSUBSCRIBE_MARK,
        replyAddress: member.replyAddress === null ? null : REPLY_MARK,
        ...(member.archiveUrl === undefined ? {} : { archiveUrl: ARCHIVE_MARK }),
      });
      shells.set(key, shell);
      shell.catch(() => shells.delete(key));
    }
    const { subject, html, text } = await shell;
    const fill = (s: string, escape: (v: string) => string) =>
      s
        .replaceAll(UNSUBSCRIBE_MARK, escape(member.unsubscribeUrl))
        .replaceAll(REPLY_MARK, escape(member.replyAddress ?? ''))
        .replaceAll(ARCHIVE_MARK, escape(member.archiveUrl ?? ''));
    return { subject, html: fill(html, escapeHtml), text: fill(text, (v) => v) };
  };
}

/** One member's e-mail of a newsletter: subject, HTML and plain text. A send uses newsletterEmails. */
export function renderNewsletterEmail(view: NewsletterView, member: EmailMember): Promise<RenderedEmail> {
  return newsletterEmails(view)(member);
}

async function renderShell(view: NewsletterView, member: EmailMember): Promise<RenderedEmail> {
  const { newsletter, loop, period, kicker } = view;
  // The public page's title (renderNewsletterPage): the newsletter's own, else the Loop's name and the period.
  const subject = newsletter.title || `${newsletter.kind === 'sneak_peek' ? 'Sneak peek: ' : ''}${loop.name}: ${period}`;
  const preview = markdownToPlainText(newsletter.content).slice(0, 140);
  const element = h(EmailDocument, { view, member, kicker, period, subject, preview });
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
  const photos = /<img /.test(html) ? ', with its photos' : '';
  const text = `${subject}\n\nRead it on the web${photos}: ${view.pageUrl}\n\n${body.trim().replace(/\n{3,}/g, '\n\n')}\n`;
  return { subject, html, text };
}

/** The Loop's cover photo at the column's width, its own height: a stored size twice as wide where there is one. */
function coverImage(cover: NewsletterCover, publicUrl: string): ReactNode {
  const width = Math.min(COLUMN, cover.width);
  const height = Math.round((cover.height * width) / cover.width);
  return h('img', {
    src: absolute(cover.url, { publicUrl }),
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
  view: NewsletterView;
  member: EmailMember;
  kicker: string;
  period: string;
  subject: string;
  preview: string;
}

const footerText: CSSProperties = { margin: '0 0 10px', fontFamily: SANS, fontSize: '15px', lineHeight: '1.5', color: C.muted };
const footerLink: CSSProperties = { color: C.accent, textDecoration: 'underline' };

function EmailDocument({ view, member, kicker, period, subject, preview }: DocumentProps): ReactNode {
  const { loop } = view;
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
              view.cover ? coverImage(view.cover, view.publicUrl) : null,
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
            h('div', { className: 'l-ink l-pad', style: { padding: '0 20px 8px' } }, h(EmailContent, { view })),
          ),
          h(
            Section,
            { className: 'l-muted', style: { padding: '20px 20px 8px', textAlign: 'center' } },
            member.replyAddress !== null ? h(Text, { style: { ...footerText, color: C.ink, fontSize: '16px' } }, REPLY_LINE) : null,
            h(
              Text,
              { style: footerText },
              h(Link, { href: view.pageUrl, className: 'l-link', style: footerLink }, 'Read it on the web'),
              ' · ',
              ...(member.archiveUrl === undefined
                ? []
                : [h(Link, { href: member.archiveUrl, className: 'l-link', style: footerLink }, 'All past issues'), ' · ']),
              h(Link, { href: member.unsubscribeUrl, className: 'l-link', style: footerLink }, 'Unsubscribe'),
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
