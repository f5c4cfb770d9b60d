import { readFileSync } from 'node:fs';
import { doIUseEmail } from '@jsx-email/doiuse-email';
import { ElementType, parseDocument } from 'htmlparser2';
import type { ChildNode, Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { newsletterEmails, REPLY_LINE, renderNewsletterEmail } from '../../src/publishing/newsletter-email';
import { HOSTILE_TEXT, LONG_TEXT, MEMBER, twentyPhotoNewsletter } from '../fixtures/newsletter-email';

/** Gmail clips a message whose HTML is over 102 KB: https://support.google.com/mail/answer/15125963 */
const GMAIL_CLIP_BYTES = 102 * 1024;

function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (nodes: ChildNode[]) => {
    for (const node of nodes) {
      if (node.type === ElementType.Tag || node.type === ElementType.Script || node.type === ElementType.Style) {
        found.push(node);
        walk(node.children);
      }
    }
  };
  walk(parseDocument(html).children);
  return found;
}

/**
 * What the caniemail.com data (through @jsx-email/doiuse-email) reports as unsupported somewhere,
 * and why each is accepted: all are progressive enhancement over inline styles and tables that
 * every client renders. Anything else it reports (display:flex or grid, <video>, a <link> to a
 * stylesheet, background images...) fails the test.
 */
const ACCEPTED_DEGRADATIONS = new Set([
  // The <style> in <head> (dark mode, phone padding) with class/type/attribute selectors, @media and
  // !important: clients that drop it keep the inline styles. https://www.caniemail.com/features/html-style/
  'Attribute selector',
  'Class selector',
  'Descendant combinator',
  'Type selector',
  '@media',
  '!important keyword',
  // The hidden preview text (React Email <Preview>): where hiding fails it is a first line of the newsletter's own words.
  'display:none',
  'opacity',
  'overflow',
  // Dropped or replaced by a <div>: the wash is on a <div> as well. https://www.caniemail.com/features/html-body/
  '<body> element',
  // Attributes and details a client ignores without harm: square corners, plain underlines, links opening where they open.
  'lang attribute',
  'role attribute',
  'target attribute',
  'border-radius',
  'text-decoration',
  'text-decoration-line',
]);

const CLIENTS = [
  'gmail.*',
  'apple-mail.*',
  'outlook.*',
  'yahoo.*',
  'samsung-email.*',
  'thunderbird.*',
  'protonmail.*',
  'aol.*',
  'fastmail.*',
];

function unsupportedFeatures(html: string): Map<string, Set<string>> {
  const result = doIUseEmail(html, { emailClients: CLIENTS });
  const features = new Map<string, Set<string>>();
  for (const error of result.success ? [] : result.errors) {
    const match = /^`(.+)` is not supported by `(.+)`$/.exec(error);
    const [feature, client] = match ? [match[1]!, match[2]!] : [error, '?'];
    features.set(feature, (features.get(feature) ?? new Set()).add(client));
  }
  return features;
}

describe('renderNewsletterEmail', () => {
  it('stays under Gmail’s clipping limit with 20 photos, a voice memo and a video', async () => {
    const email = await renderNewsletterEmail(twentyPhotoNewsletter(), MEMBER);
    const bytes = Buffer.byteLength(email.html);
    expect(bytes).toBeLessThan(GMAIL_CLIP_BYTES);
    expect(elements(email.html).filter((e) => e.name === 'img')).toHaveLength(21); // 20 photos and the video's poster
  });

  it('passes the e-mail linter (caniemail.com data) with only accepted degradations', async () => {
    const email = await renderNewsletterEmail(twentyPhotoNewsletter(`${LONG_TEXT}\n\n${HOSTILE_TEXT}`), MEMBER);
    const features = unsupportedFeatures(email.html);
    const unexpected = [...features].filter(([feature]) => !ACCEPTED_DEGRADATIONS.has(feature));
    expect(unexpected).toEqual([]);
  });

  it('follows the rules written from caniemail.com', async () => {
    const input = twentyPhotoNewsletter(LONG_TEXT);
    const { html } = await renderNewsletterEmail(input, MEMBER);
    const all = elements(html);
    const names = new Set(all.map((e) => e.name));
    // No script, stylesheet links, frames, forms or players: https://www.caniemail.com/features/html-audio/,
    // https://www.caniemail.com/features/html-video/, https://www.caniemail.com/features/html-link/
    for (const tag of ['script', 'link', 'iframe', 'audio', 'video', 'form', 'object', 'embed', 'svg'])
      expect(names.has(tag), tag).toBe(false);
    // Layout by block and table, never flex or grid: https://www.caniemail.com/features/css-display-flex/,
    // https://www.caniemail.com/features/css-display-grid/
    expect(html).not.toMatch(/display:\s*(inline-)?(flex|grid)/);
    // Dark mode: https://www.caniemail.com/features/css-at-media-prefers-color-scheme/ and the color-scheme meta.
    expect(all.some((e) => e.name === 'meta' && e.attribs.name === 'color-scheme' && e.attribs.content === 'light dark')).toBe(true);
    expect(html).toContain('@media (prefers-color-scheme:dark)');
    // Responsive: a phone viewport and a fluid 600 px column.
    expect(html).toContain('max-width:600px');
    // Outlook for Windows ignores max-width: a 600 px table in its conditional comments only.
    // https://www.caniemail.com/features/css-max-width/
    expect(html).toContain('<!--[if mso]><table role="presentation" width="600"');
    expect(html).toContain('<!--[if mso]></td></tr></table><![endif]-->');
    for (const img of all.filter((e) => e.name === 'img')) {
      const { src, width, height, alt, style } = img.attribs;
      expect(src, 'absolute address').toMatch(/^https:\/\/loop\.example\/media\/\w+\/\d+$/);
      expect(Number(width)).toBeGreaterThan(0);
      expect(Number(width)).toBeLessThanOrEqual(560);
      expect(Number(height)).toBeGreaterThan(0);
      expect(alt).toBeTruthy();
      // Inline: Gmail drops styles it cannot attach. https://www.caniemail.com/features/html-style/
      expect(style).toContain('height:auto');
      expect(img.attribs.srcset).toBeUndefined();
    }
    // Paragraphs, headings and links carry their look inline.
    for (const e of all.filter((x) => ['p', 'h2', 'a'].includes(x.name))) expect(e.attribs.style, e.name).toBeTruthy();
    // No relative link survives: every address works from an inbox.
    for (const a of all.filter((e) => e.name === 'a')) expect(a.attribs.href).toMatch(/^https:\/\//);
  });

  it('uses the sized photo variant twice the drawn width, and keeps the photo’s ratio', async () => {
    const input = twentyPhotoNewsletter();
    const { html } = await renderNewsletterEmail(input, MEMBER);
    const imgs = elements(html).filter((e) => e.name === 'img');
    const single = imgs[0]!.attribs;
    expect(single.src).toBe('https://loop.example/media/photo00abcdefghijklmnop/1280');
    expect([single.width, single.height]).toEqual(['560', '420']);
    const tile = imgs[1]!.attribs;
    expect(tile.src).toBe('https://loop.example/media/photo01abcdefghijklmnop/640');
    expect([tile.width, tile.height]).toEqual(['272', '204']);
  });

  it('draws the Loop’s cover photo above its name, at the column’s width, with its words', async () => {
    const input = {
      ...twentyPhotoNewsletter(),
      cover: { url: 'https://loop.example/media/coverabcdefghijklmnop', width: 1280, height: 640, alt: 'The lake at dusk' },
    };
    const { html } = await renderNewsletterEmail(input, MEMBER);
    const cover = elements(html).find((e) => e.name === 'img' && e.attribs.alt === 'The lake at dusk');
    expect(cover?.attribs).toMatchObject({ src: 'https://loop.example/media/coverabcdefghijklmnop', width: '560', height: '280' });
    expect(html.indexOf('The lake at dusk')).toBeLessThan(html.indexOf('The Parkers</h1>'));
    // Without one, no cover.
    expect((await renderNewsletterEmail(twentyPhotoNewsletter(), MEMBER)).html).not.toContain('l-cover');
  });

  it('names each photo in the plain text with its address; a caption is under its photo’s link, not in it', async () => {
    const input = twentyPhotoNewsletter();
    const { html, text } = await renderNewsletterEmail(input, MEMBER);
    expect(text).toContain('Photo from Ada: https://loop.example/media/photo00abcdefghijklmnop');
    expect(text.match(/^Photo from \w+: https:\/\/loop\.example\/media\/photo\d\d/gm)).toHaveLength(20);
    expect(text).toContain('At the lake');
    const captioned = elements(html).filter((e) => e.name === 'span' && e.children.some((c) => 'data' in c && c.data === 'At the lake'));
    expect(captioned.length).toBeGreaterThan(0);
    for (const caption of captioned) {
      for (let up = caption.parent; up && 'name' in up; up = up.parent) expect(up.name).not.toBe('a');
    }
  });

  it('leaves out pictures from elsewhere on the web (unknown size, a tracking pixel)', async () => {
    const input = twentyPhotoNewsletter('![A remote picture](https://elsewhere.example/p.png)');
    const { html } = await renderNewsletterEmail(input, MEMBER);
    expect(html).not.toContain('elsewhere.example');
    expect(elements(html).filter((e) => e.name === 'img')).toHaveLength(21);
  });

  it('shows voice memos and videos as a link to the public page', async () => {
    const input = twentyPhotoNewsletter();
    const { html, text } = await renderNewsletterEmail(input, MEMBER);
    const clipLinks = elements(html).filter((e) => e.name === 'a' && e.attribs.class === 'l-clip');
    expect(clipLinks.map((a) => a.attribs.href)).toEqual([input.pageUrl, input.pageUrl]);
    expect(html).toContain('Voice memo, 0:42');
    expect(html).toContain('Cleo sings happy birthday');
    expect(html).toContain('src="https://loop.example/media/videoabcdefghijklmnopq/640"');
    expect(text).toContain(`Voice memo, 0:42\n\n${input.pageUrl}`);
  });

  it('has the footer: unsubscribe, the web page, and the reply line when there is a reply address', async () => {
    const input = twentyPhotoNewsletter();
    const email = await renderNewsletterEmail(input, MEMBER);
    const links = elements(email.html).filter((e) => e.name === 'a');
    expect(links.some((a) => a.attribs.href === MEMBER.unsubscribeUrl)).toBe(true);
    expect(email.html).toContain('href="https://loop.example/email/unsubscribe/tok_123?a=1&amp;b=2"');
    expect(links.some((a) => a.attribs.href === input.pageUrl)).toBe(true);
    expect(email.html).toContain(REPLY_LINE.replace("'", '&#x27;'));
    expect(email.text).toContain(REPLY_LINE);
    expect(email.text).toContain(`Unsubscribe ${MEMBER.unsubscribeUrl}`);
    expect(email.text).toContain(`Read it on the web ${input.pageUrl}`);

    const noReply = await renderNewsletterEmail(input, { ...MEMBER, replyAddress: null });
    expect(noReply.html).not.toContain('Reply to this e-mail');
    expect(noReply.text).not.toContain('Reply to this e-mail');
  });

  it('gives each member their own link to the past issues (decision 0053), and none when there is none', async () => {
    const input = twentyPhotoNewsletter();
    const [a, b] = await Promise.all([
      renderNewsletterEmail(input, { ...MEMBER, archiveUrl: 'https://loop.example/newsletters/past/1-aaa' }),
      renderNewsletterEmail(input, { ...MEMBER, archiveUrl: 'https://loop.example/newsletters/past/2-bbb' }),
    ]);
    expect(a.html).toContain('href="https://loop.example/newsletters/past/1-aaa"');
    expect(a.text).toContain('All past issues https://loop.example/newsletters/past/1-aaa');
    expect(b.html).toContain('href="https://loop.example/newsletters/past/2-bbb"');
    expect(b.html).not.toContain('1-aaa');
    expect((await renderNewsletterEmail(input, MEMBER)).html).not.toContain('All past issues');
  });

  it('gives each member their own unsubscribe link from the one rendering', async () => {
    const input = twentyPhotoNewsletter();
    const [a, b] = await Promise.all([
      renderNewsletterEmail(input, { ...MEMBER, unsubscribeUrl: 'https://loop.example/email/unsubscribe/aaa' }),
      renderNewsletterEmail(input, { ...MEMBER, unsubscribeUrl: 'https://loop.example/email/unsubscribe/"><script>' }),
    ]);
    expect(a.html).toContain('/email/unsubscribe/aaa"');
    expect(a.html).not.toContain('unsubscribe/"');
    expect(b.html).toContain('/email/unsubscribe/&quot;&gt;&lt;script&gt;"');
    expect(a.text).toContain('unsubscribe/aaa');
    expect(a.html).not.toContain('.invalid');
  });

  it('has the Loop’s name and the period as subject, and a readable plain-text part', async () => {
    const input = twentyPhotoNewsletter(LONG_TEXT);
    const email = await renderNewsletterEmail(input, MEMBER);
    expect(email.subject).toBe('The Parkers: November 1 – 15, 2026');
    expect(
      email.text.startsWith(
        `The Parkers: November 1 – 15, 2026\n\nRead it on the web, with its photos: ${input.pageUrl}\n\nAda\n\nDay 1: a walk`,
      ),
    ).toBe(true);
    expect(email.text).not.toMatch(/<[a-z]/i);
    expect(email.text).not.toMatch(/\n{3,}/);
    const peek = await renderNewsletterEmail(twentyPhotoNewsletter(LONG_TEXT, 'sneak_peek'), MEMBER);
    expect(peek.subject).toBe('Sneak peek: The Parkers: November 1 – 15, 2026');
  });

  it('never lets what a member wrote become markup', async () => {
    const { html, text } = await renderNewsletterEmail(twentyPhotoNewsletter(HOSTILE_TEXT), MEMBER);
    const all = elements(html);
    expect(all.some((e) => e.name === 'script' || e.name === 'iframe')).toBe(false);
    expect(all.filter((e) => e.name === 'style')).toHaveLength(1); // ours, in <head>
    for (const e of all) {
      for (const [name, value] of Object.entries(e.attribs)) {
        expect(name, `${e.name}[${name}]`).not.toMatch(/^on/i);
        expect(value, `${e.name}[${name}]`).not.toMatch(/^\s*javascript:/i);
      }
    }
    expect(all.some((e) => e.name === 'img' && e.attribs.src?.includes('evil'))).toBe(false);
    expect(all.filter((e) => e.name === 'img')).toHaveLength(21);
    // The words are there, as words.
    expect(html).toContain('&lt;script&gt;alert(');
    expect(text).toContain('<script>alert("x")</script>');
  });

  it('keeps a rendering for its send only, never in the module (decision 0062)', async () => {
    const send = newsletterEmails(twentyPhotoNewsletter('First words.'));
    const [a, b] = await Promise.all([send(MEMBER), send({ ...MEMBER, unsubscribeUrl: 'https://loop.example/email/unsubscribe/b' })]);
    expect(a.html).toContain('First words.');
    expect(b.html.replace('/unsubscribe/b', '')).toBe(a.html.replace('/unsubscribe/tok_123?a=1&amp;b=2', ''));
    // No cache at the top level of the e-mail's modules: a Map, Set or WeakMap there outlives every send.
    for (const file of ['newsletter-email.ts', 'email-content.ts', 'newsletter-view.ts']) {
      const source = readFileSync(new URL(`../../src/publishing/${file}`, import.meta.url), 'utf8');
      expect(source, file).not.toMatch(/^(export )?(const|let) \w+ = new (Weak)?(Map|Set)\b/m);
    }
  });
});
