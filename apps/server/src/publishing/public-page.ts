import { escapeHtml } from './html';
import { pageAssets } from './page-assets';
import type { NewsletterCover, NewsletterView } from './newsletter-view';
import { findMediaUrls, markdownToPlainText, renderMarkdown } from './render-markdown';

/** What the page adds to the newsletter view for whoever asked for it. */
export interface NewsletterPageOptions {
  /** The Loop's past issues behind this page's link (a sent newsletter's only; decision 0042). */
  archivePath?: string;
  /** The issue's print-ready PDF, regular and large type (decision 0069). */
  pdf?: { path: string; largePath: string };
  /** False for the editor's live preview, a frame that runs no script: the page without its lightbox. */
  script?: boolean;
  /** For a signed-in member: where a tap goes, the emoji to offer and the ones they chose. */
  react?: { path: string; emoji: readonly string[]; mine: readonly string[] };
}

const DESCRIPTION_LENGTH = 200;

/** The whole public page: server-rendered, one stylesheet, one small script, nothing of the web app. */
export function renderNewsletterPage(view: NewsletterView, options: NewsletterPageOptions = {}): string {
  const { newsletter, loop, period, kicker } = view;
  const photos = findMediaUrls(newsletter.content).filter((url) => !url.startsWith('/media/') || view.photos.has(url));
  // The link preview's picture is Loop's own media only (decision 0054): an outside image in the
  // owner's content would let its server see, and choose, what every preview of the Loop shows.
  const firstPhoto = photos.find((url) => url.startsWith('/media/'));
  const image = firstPhoto ? `${view.publicUrl}${firstPhoto}` : null;
  const title = newsletter.title || `${loop.name}: ${period}`;
  const draft = newsletter.status === 'draft';
  const description = describe(newsletter.content);
  const meta: Meta[] = [
    ['name', 'description', description],
    ['property', 'og:type', 'article'],
    ['property', 'og:site_name', 'Loop'],
    ['property', 'og:title', title],
    ['property', 'og:description', description],
    ['property', 'og:url', view.pageUrl],
    ['name', 'twitter:card', image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', title],
    ['name', 'twitter:description', description],
  ];
  if (image) meta.push(['property', 'og:image', image], ['name', 'twitter:image', image]);
  const body = `
${draft ? '<p class="draft-banner" role="status"><strong>Draft preview.</strong> Only the Loop’s owner and Loop staff can see this page until the newsletter is sent.</p>' : ''}
<div class="page">
  <header class="masthead">
${renderCover(view.cover)}
    <p class="kicker">${kicker}${draft ? ' (draft)' : ''}</p>
    <h1>${escapeHtml(loop.name)}</h1>
    <p class="period">${escapeHtml(period)}</p>
  </header>
  <nav class="page-tools" aria-label="More from this Loop">
    ${options.archivePath ? `<a href="${escapeHtml(options.archivePath)}">All past issues</a>` : ''}
    ${options.pdf ? `<a class="pdf-link" href="${escapeHtml(options.pdf.path)}" download>Download PDF</a> <a class="pdf-link" href="${escapeHtml(options.pdf.largePath)}" download>Large-type PDF</a>` : ''}
    <button type="button" class="print-button" hidden>Print / Save as PDF</button>
  </nav>
  <main class="content">
${renderMarkdown(newsletter.content, view.photos, view.clips, view.pageUrl)}
  </main>
${renderReactions(view.reactions, options.react)}
  <footer class="page-footer">
    <p>${newsletter.sentAt ? `Sent ${escapeHtml(formatDate(newsletter.sentAt, loop.timeZone))} with Loop.` : 'Written with Loop.'} Loop turns a group's text messages into newsletters.</p>
  </footer>
</div>
${photos.length ? LIGHTBOX : ''}`;
  // The editor's live preview (script: false) runs no script: no lightbox, no print button.
  const scripts =
    options.script === false
      ? []
      : [...(photos.length > 0 ? [pageAssets.js.path] : []), pageAssets.print.path, ...(options.react ? [pageAssets.react.path] : [])];
  return page({ title, meta, body, scripts });
}

/** The cover photo at the top of the masthead, at its own shape (no layout shift: width and height). */
function renderCover(cover: NewsletterCover | null | undefined): string {
  if (!cover) return '';
  return `    <img class="cover" src="${escapeHtml(cover.url)}" width="${cover.width}" height="${cover.height}" alt="${escapeHtml(cover.alt)}" decoding="async">`;
}

/** The reactions under a sent issue, and for a member the emoji to tap (shown by react.js). */
function renderReactions(shown: NewsletterView['reactions'], react: NewsletterPageOptions['react']): string {
  if (shown.length === 0 && !react) return '';
  const items = shown
    .map(
      (r) =>
        `<li><span class="reaction-body">${escapeHtml(r.body)}</span> <span class="reaction-name">${escapeHtml(r.firstName)}</span></li>`,
    )
    .join('');
  const list = shown.length > 0 ? `<ul class="reaction-list">${items}</ul>` : '<p class="reaction-empty">No reactions yet.</p>';
  const buttons = react
    ? `<form class="react" data-path="${escapeHtml(react.path)}" hidden>${react.emoji
        .map(
          (e) =>
            `<button type="button" data-emoji="${escapeHtml(e)}" aria-pressed="${react.mine.includes(e)}" aria-label="React ${escapeHtml(e)}">${escapeHtml(e)}</button>`,
        )
        .join('')}<p class="react-status" role="status"></p></form>`
    : '';
  return `  <section class="reactions" aria-label="Reactions"><h2>Reactions</h2>${list}${buttons}</section>`;
}

export interface ArchivePageInput {
  loop: { name: string; timeZone: string };
  entries: { kind: 'newsletter' | 'sneak_peek'; title: string; path: string; sentAt: Date }[];
}

/** A Loop's past issues, newest first: date, title, link (decision 0042). Never indexed, like the pages. */
export function renderArchivePage(input: ArchivePageInput): string {
  const { loop } = input;
  const items = input.entries
    .map((entry) => {
      const kind = entry.kind === 'sneak_peek' ? 'Sneak peek' : 'Newsletter';
      const date = formatDate(entry.sentAt, loop.timeZone);
      return `    <li><a href="${escapeHtml(entry.path)}"><span class="archive-title">${escapeHtml(entry.title || kind)}</span></a>
      <span class="archive-meta">${kind} · <time datetime="${entry.sentAt.toISOString()}">${escapeHtml(date)}</time></span></li>`;
    })
    .join('\n');
  const body = `
<div class="page">
  <header class="masthead">
    <p class="kicker">Past issues</p>
    <h1>${escapeHtml(loop.name)}</h1>
    <p class="period">${input.entries.length} ${input.entries.length === 1 ? 'issue' : 'issues'}, newest first</p>
  </header>
  <main class="content">
  <ol class="archive">
${items}
  </ol>
  </main>
  <footer class="page-footer"><p>Loop turns a group's text messages into newsletters.</p></footer>
</div>`;
  return page({ title: `${loop.name}: past issues · Loop`, meta: [], body, scripts: [] });
}

/**
 * The archive asked for by someone who is not (or no longer) one of the Loop's members, with only
 * a newsletter's link (decision 0053): what to do, and nothing about the Loop.
 */
export function renderMembersOnlyPage(issuePath: string): string {
  const body = `
<main class="not-found">
  <h1>Past issues are for the Loop's members</h1>
  <p>A newsletter's link opens that newsletter. To see every past issue, sign in to Loop as a member of this Loop, or open your own link to past issues from your newsletter e-mail.</p>
  <p><a href="/auth">Sign in</a> · <a href="${escapeHtml(issuePath)}">Back to this newsletter</a></p>
</main>`;
  return page({ title: 'Past issues are for members · Loop', meta: [], body, scripts: [] });
}

/** The friendly page for an unknown (or not yet public) newsletter. */
export function renderNotFoundPage(): string {
  const body = `
<main class="not-found">
  <h1>We couldn't find this newsletter</h1>
  <p>The link may be incomplete or mistyped. Open it again from the text message it came in, or ask the person who runs your Loop to send it again.</p>
  <p><a href="/">Go to Loop</a></p>
</main>`;
  return page({ title: 'Newsletter not found · Loop', meta: [], body, scripts: [] });
}

const LIGHTBOX = `<dialog class="lightbox" aria-label="Photo viewer">
  <button type="button" class="lightbox-close" aria-label="Close photo">&times;</button>
  <button type="button" class="lightbox-prev" aria-label="Previous photo">&lsaquo;</button>
  <figure><img alt=""><figcaption></figcaption></figure>
  <button type="button" class="lightbox-next" aria-label="Next photo">&rsaquo;</button>
</dialog>`;

/** A <meta> tag: attribute name (name or property), its value, and the content. */
type Meta = [key: 'name' | 'property', name: string, content: string];

// Newsletters are a group's private news behind an unguessable link: never indexed. Also the
// pages of e-mail links (email-pages.ts).
export function page(input: { title: string; meta: Meta[]; body: string; scripts: string[] }): string {
  const meta = input.meta.map(([key, name, content]) => `<meta ${key}="${name}" content="${escapeHtml(content)}">`).join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)}</title>
<meta name="robots" content="noindex, nofollow">
<link rel="icon" href="${pageAssets.icon.path}" type="image/svg+xml">
${meta}
<link rel="stylesheet" href="${pageAssets.css.path}">
${input.scripts.map((src) => `<script src="${src}" defer></script>`).join('\n')}
</head>
<body>${input.body}
</body>
</html>
`;
}

function describe(markdown: string): string {
  const text = markdownToPlainText(markdown);
  if (text.length <= DESCRIPTION_LENGTH) return text;
  const cut = text.slice(0, DESCRIPTION_LENGTH);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), DESCRIPTION_LENGTH / 2))}…`;
}

function formatDate(date: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-US', { timeZone, month: 'long', day: 'numeric', year: 'numeric' }).format(date);
}
