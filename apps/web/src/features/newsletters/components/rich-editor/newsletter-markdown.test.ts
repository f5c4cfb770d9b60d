import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { isAllowedNewsletterUrl } from '@loop/shared/newsletters';
import { parseNewsletter, serializeNewsletter } from './newsletter-markdown';

// Markdown read as the server's renderer reads it (apps/server/src/publishing/render-markdown.ts):
// the same parser and options, links and pictures to the web and /media only. Only to compare.
const md = new MarkdownIt('default', { html: false, linkify: false, typographer: false, breaks: true });
md.validateLink = isAllowedNewsletterUrl;
const renderNewsletter = (markdown: string) => md.render(markdown);

// Newsletters as the writers write them (apps/server/src/publishing/template-writer.ts): sections
// per member, escaped text, photo galleries, voice memos and videos with their transcripts.
const TEMPLATE = `The Walker Family had a busy two weeks: 5 updates, 3 photos, 1 voice memo and 1 video from Ada and Ben.

Where we are: *Three houses, two time zones*

## Ada Walker

*Grandma's helper*

**Sunday, March 1**

Made pancakes\\! Recipe at https://example.com/pancakes \\*not\\* secret.
Second line of the same update.

![Photo from Ada](/media/abc_123) ![Photo from Ada](/media/def-456)

![Voice memo from Ada, 0:04](/media/memo_1)

> “Hi everyone, the garden is blooming” *(transcribed)*

## Ben Walker

**Tuesday, March 3**

1\\. Not a list, just a number.

![Video from Ben, 1:02](/media/video_9)

![Photo from Ben](/media/ghi_789)

---

Until next time, The Walker Family\\!
`;

const EDITED = `# Our week

Some **bold** and *emphasis* with a [link](https://example.com/a) and an [own photo link](/media/abc_123).

* one
* two

1. first
2. second

![Photo from Ada](/media/abc_123 "Grandma at 90")

![Voice memo from Ada, 0:04](/media/memo_1 "The garden, in her words")
`;

const SNEAK_PEEK = `Coming soon to the Walker Family: 3 updates from Ada.

> **Ada:** We went to the lake and Ben caught a fish…

![Photo from Ada](/media/abc_123) ![Photo from Ada](/media/def-456)

The full newsletter is coming soon. Text your news and photos to be in it!
`;

describe('newsletter Markdown through the editor and back', () => {
  it.each([
    ['a template newsletter', TEMPLATE],
    ['an edited newsletter with captions, lists and links', EDITED],
    ['a sneak peek', SNEAK_PEEK],
  ])('keeps %s as the page draws it', (_name, markdown) => {
    const once = serializeNewsletter(parseNewsletter(markdown));
    expect(renderNewsletter(once)).toBe(renderNewsletter(markdown));
    // And it is stable: a second trip changes nothing.
    expect(serializeNewsletter(parseNewsletter(once))).toBe(once);
  });

  it('reads photos, voice memos and videos as media with their captions, a gallery kept together', () => {
    const doc = parseNewsletter(TEMPLATE + '\n' + EDITED);
    const media: { src: string; alt: string; title: string; gallery: number }[] = [];
    doc.descendants((node, _pos, parent) => {
      if (node.type.name === 'media')
        media.push({ ...(node.attrs as { src: string; alt: string; title: string }), gallery: parent?.childCount ?? 0 });
    });
    expect(media.map((m) => [m.src, m.gallery])).toEqual([
      ['/media/abc_123', 2],
      ['/media/def-456', 2],
      ['/media/memo_1', 1],
      ['/media/video_9', 1],
      ['/media/ghi_789', 1],
      ['/media/abc_123', 1],
      ['/media/memo_1', 1],
    ]);
    expect(media.at(-1)).toMatchObject({ alt: 'Voice memo from Ada, 0:04', title: 'The garden, in her words' });
  });

  it('keeps the exact text of a newsletter edited in the editor', () => {
    expect(serializeNewsletter(parseNewsletter(EDITED))).toBe(EDITED);
  });

  it('refuses a disallowed link: it stays text, as on the page', () => {
    const markdown = '[click](javascript:alert(1)) and [ftp](ftp://x.example/y) ![x](https://evil.example/x.mp4)\n';
    const doc = parseNewsletter(markdown);
    let links = 0;
    doc.descendants((node) => {
      if (node.marks.some((m) => m.type.name === 'link')) links++;
    });
    expect(links).toBe(0);
    const html = renderNewsletter(serializeNewsletter(doc));
    expect(html).not.toContain('href="javascript');
    expect(html).not.toContain('href="ftp');
  });
});
