import { escapeHtml } from './html';
import { page } from './public-page';

/**
 * The pages behind the links of Loop's e-mails (decision 0047), server-rendered like the public
 * newsletter page and needing no sign-in. They name no address, person or Loop: whoever holds a
 * link learns nothing of who is a member of what.
 */
export function renderEmailLinkPage(input: {
  title: string;
  paragraphs: string[];
  /** A button that POSTs to `action` (the same link): a mail scanner's GET changes nothing. */
  form?: { action: string; button: string; fields?: Record<string, string> };
}): string {
  const fields = Object.entries(input.form?.fields ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
  const form = input.form
    ? `<form method="post" action="${escapeHtml(input.form.action)}">${fields}<button type="submit">${escapeHtml(input.form.button)}</button></form>`
    : '';
  const body = `
<main class="not-found">
  <h1>${escapeHtml(input.title)}</h1>
  ${input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n  ')}
  ${form}
  <p><a href="/">Go to Loop</a></p>
</main>`;
  return page({ title: `${input.title} · Loop`, meta: [], body, scripts: [] });
}
