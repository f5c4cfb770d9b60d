import { describe, expect, it } from 'vitest';
import type { Clip, Photo } from '@loop/shared/media';
import { renderNewsletterEmail } from '../../src/publishing/newsletter-email';
import { inlineText, toNewsletterView, type NewsletterViewInput, type ViewBlock } from '../../src/publishing/newsletter-view';
import { renderNewsletterPage } from '../../src/publishing/public-page';
import { HOSTILE_TEXT, MEMBER } from '../fixtures/newsletter-email';

const PHOTO: Photo = { url: '/media/photoAAAAAAAAAAAAAAAAAAAA', width: 2048, height: 1536, widths: [320, 640, 1280, 2048] };
const OTHER: Photo = { url: '/media/photoBBBBBBBBBBBBBBBBBBBB', width: 1536, height: 2048, widths: [320, 640, 1280, 1536] };
const MEMO: Clip = {
  url: '/media/memoCCCCCCCCCCCCCCCCCCCC',
  kind: 'audio',
  durationMs: 42_000,
  width: 0,
  height: 0,
  poster: null,
  transcript: 'Hello everyone!',
};

function input(content: string): NewsletterViewInput {
  return {
    newsletter: {
      kind: 'newsletter',
      status: 'sent',
      title: '',
      content,
      periodStart: new Date('2026-11-01T12:00:00Z'),
      periodEnd: new Date('2026-11-15T12:00:00Z'),
      sentAt: new Date('2026-11-15T18:00:00Z'),
    },
    loop: { name: 'The Parkers', timeZone: 'America/New_York' },
    pageUrl: 'https://loop.example/newsletters/Abc123xyzAbc123xyz00',
    publicUrl: 'https://loop.example',
    photos: new Map([
      [PHOTO.url, PHOTO],
      [OTHER.url, OTHER],
    ]),
    clips: new Map([[MEMO.url, MEMO]]),
  };
}

const ISSUE = [
  'The Parkers had a busy two weeks.',
  '## Ada Parker',
  `*At the lake*\n\n![Photo from Ada](${PHOTO.url} "Ducks") ![Photo from Ada](${OTHER.url})`,
  '## Ben Parker',
  `![Voice memo from Ben](${MEMO.url} "Ben says hi")\n\n> “Hello everyone!” *(transcribed)*`,
  '- one\n- two [a link](https://example.com/x)',
  '![Deleted](/media/goneDDDDDDDDDDDDDDDDDDDD) ![From the web](https://elsewhere.example/p.png)',
].join('\n\n');

describe('toNewsletterView', () => {
  it('reads the issue into sections with their authors, photos with sizes and captions, clips with transcripts', () => {
    const view = toNewsletterView(input(ISSUE));
    expect(view.period).toBe('November 1 – 15, 2026');
    expect(view.kicker).toBe('Newsletter');
    expect(view.cover).toBeNull();
    expect(view.authors).toEqual(['Ada Parker', 'Ben Parker']);
    expect(view.sections.map((s) => (s.heading ? inlineText(s.heading.content) : null))).toEqual([null, 'Ada Parker', 'Ben Parker']);

    const ada = view.sections[1]!.blocks;
    expect(ada[0]).toEqual({
      type: 'paragraph',
      gallery: false,
      content: [{ type: 'em', children: [{ type: 'text', text: 'At the lake' }] }],
    });
    expect(ada[1]).toMatchObject({
      type: 'paragraph',
      gallery: true,
      content: [
        { type: 'photo', photo: PHOTO, alt: 'Photo from Ada', caption: 'Ducks', tile: true },
        { type: 'text', text: ' ' },
        { type: 'photo', photo: OTHER, alt: 'Photo from Ada', caption: null, tile: true },
      ],
    });

    const ben = view.sections[2]!.blocks;
    expect(ben[0]).toEqual({
      type: 'paragraph',
      gallery: false,
      content: [{ type: 'clip', clip: MEMO, alt: 'Voice memo from Ben', caption: 'Ben says hi' }],
    });
    expect(ben[1]).toMatchObject({ type: 'quote' });
    const list = ben[2] as Extract<ViewBlock, { type: 'list' }>;
    expect(list).toMatchObject({ type: 'list', ordered: false, tight: true });
    expect(list.items[1]).toEqual([
      {
        type: 'paragraph',
        gallery: false,
        content: [
          { type: 'text', text: 'two ' },
          { type: 'link', href: 'https://example.com/x', children: [{ type: 'text', text: 'a link' }] },
        ],
      },
    ]);
    // A deleted (or another Loop's) photo is in no edition; a picture from the web is kept for the page.
    expect(ben[3]).toMatchObject({
      type: 'paragraph',
      content: [
        { type: 'text', text: ' ' },
        { type: 'picture', src: 'https://elsewhere.example/p.png' },
      ],
    });
  });

  it('keeps what a member wrote as words: no link or picture to an address a newsletter may not use', () => {
    const view = toNewsletterView(input(HOSTILE_TEXT));
    const json = JSON.stringify(view.sections);
    expect(json).not.toMatch(/"href":"javascript/i);
    expect(json).not.toMatch(/"src":"javascript/i);
    expect(json).not.toContain('evil.example/p.png"');
    // Raw HTML stays text, to be escaped by whichever edition draws it.
    expect(json).toContain('<script>alert(\\"x\\")</script>');
  });

  it('is what both the page and the e-mail draw: the same sections, photos and captions', async () => {
    const view = toNewsletterView(input(ISSUE));
    const page = renderNewsletterPage(view);
    const email = await renderNewsletterEmail(view, MEMBER);
    for (const html of [page, email.html]) {
      expect(html).toContain('Ada Parker</h2>');
      expect(html).toContain('Ben Parker</h2>');
      expect(html).toContain('Ducks</span>');
      expect(html).toContain('Ben says hi</span>');
      expect(html).toContain(`${PHOTO.url}`);
      expect(html).toContain(`${OTHER.url}`);
      expect(html).not.toContain('/media/goneDDDDDDDDDDDDDDDDDDDD');
    }
    // The page shows the picture from the web; the e-mail leaves it out (unknown size, a tracker).
    expect(page).toContain('https://elsewhere.example/p.png');
    expect(email.html).not.toContain('elsewhere.example');
  });
});
