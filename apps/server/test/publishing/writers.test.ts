import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VIBES } from '@loop/shared/constants';
import { createOpenAiWriter } from '../../src/publishing/openai-writer';
import { renderMarkdown } from '../../src/publishing/render-markdown';
import { templateWriter, writeFromTemplate } from '../../src/publishing/template-writer';
import type { NewsletterInput, WriterUpdate } from '../../src/publishing/writer';
import { startFakeOpenAi, type FakeOpenAi } from '../helpers/fake-openai';

const PHOTO_A = '/media/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
const PHOTO_B = '/media/BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBB';

function update(overrides: Partial<WriterUpdate> & { at: string }): WriterUpdate {
  const { at, ...rest } = overrides;
  return {
    authorId: 1,
    author: { firstName: 'Ada', lastName: 'Lovelace', context: null },
    content: 'Hello!',
    createdAt: new Date(at),
    photoUrls: [],
    ...rest,
  };
}

function input(overrides: Partial<NewsletterInput> = {}): NewsletterInput {
  return {
    kind: 'newsletter',
    loop: {
      name: 'The Smiths',
      context: 'Grandma Rose and her grandkids, spread over three states',
      vibe: ['family'],
      timeZone: 'America/New_York',
    },
    period: { start: new Date('2025-03-01T05:00:00Z'), end: new Date('2025-03-15T04:00:00Z') },
    updates: [
      update({ at: '2025-03-02T15:00:00Z', content: 'We planted tomatoes.', photoUrls: [PHOTO_A] }),
      update({
        at: '2025-03-03T15:00:00Z',
        authorId: 2,
        author: { firstName: 'Ben', lastName: 'Smith', context: 'Grandson' },
        content: 'Got my driving license!',
      }),
      update({ at: '2025-03-04T15:00:00Z', content: 'The first tomato is red.', photoUrls: [PHOTO_B] }),
    ],
    ...overrides,
  };
}

/** What a reader sees: the rendered HTML's text. */
function visibleText(html: string): string {
  return html
    .replace(/<br \/>\n?/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

describe('template writer', () => {
  it('titles the newsletter with the Loop and the period in its time zone', () => {
    const written = writeFromTemplate(input());
    expect(written.title).toBe('The Smiths: March 1 – 14, 2025');
    expect(written).toMatchObject({ writer: 'template', fellBack: false });
  });

  it('writes one section per member, updates in time order, photos as images, and a closing', () => {
    const { content } = writeFromTemplate(input());
    expect(content.match(/^## .+$/gm)).toEqual(['## Ada Lovelace', '## Ben Smith']);
    expect(content.indexOf('We planted tomatoes.')).toBeLessThan(content.indexOf('The first tomato is red.'));
    expect(content).toContain(`![Photo from Ada](${PHOTO_A})`);
    expect(content).toContain('*Grandson*');
    expect(content).toContain('**Sunday, March 2**');
    expect(content).toContain('Grandma Rose and her grandkids');
    expect(content.trim().split('\n').at(-1)).toMatch(/text your updates and photos anytime/i);
    const html = renderMarkdown(content);
    expect(html).toContain(`<a class="photo" href="${PHOTO_A}"`);
    expect(html).toContain('<p class="gallery">');
  });

  it('is deterministic', async () => {
    expect(await templateWriter.write(input())).toEqual(await templateWriter.write(input()));
  });

  it.each(VIBES)('opens in the %s vibe, differently from the others', (vibe) => {
    const opening = (v: string) => writeFromTemplate(input({ loop: { ...input().loop, vibe: [v] } })).content.split('\n\n')[0];
    const mine = opening(vibe);
    expect(mine).toContain('The Smiths');
    for (const other of VIBES.filter((v) => v !== vibe)) expect(opening(other)).not.toBe(mine);
  });

  it('takes its tone from the first vibe the Loop lists', () => {
    const formal = writeFromTemplate(input({ loop: { ...input().loop, vibe: ['formal', 'funny'] } })).content;
    expect(formal.startsWith('Dear members of The Smiths')).toBe(true);
  });

  it('says so when the period has no updates', () => {
    const { content } = writeFromTemplate(input({ updates: [] }));
    expect(content).toMatch(/quiet stretch: nobody shared an update/);
    expect(content).not.toContain('## ');
  });

  it('keeps member text, names and context as plain text however much Markdown and HTML they hold', () => {
    const nasty = [
      '# Not a heading **not bold** _not italic_ `not code` ~~not struck~~',
      '- not a list',
      '1. not numbered',
      '> not a quote',
      '[not a link](https://example.com) ![not an image](/media/x) <https://auto.link>',
      '<script>alert(1)</script> <b>not bold</b> &amp; &lt;tag&gt; a | table | row',
      '    not code either',
      '---',
    ].join('\n');
    const written = writeFromTemplate(
      input({
        loop: { ...input().loop, name: 'The *Smiths* <3', context: '[ctx](javascript:alert(1))' },
        updates: [
          update({ at: '2025-03-02T15:00:00Z', content: nasty, author: { firstName: '<b>Ada</b>', lastName: '**L**', context: '# ctx' } }),
        ],
      }),
    );
    const html = renderMarkdown(written.content);
    expect(html).not.toMatch(/<(script|b|code|del|s|ul|ol|li|blockquote|table|pre|img|h1|a)[\s>]/);
    expect(html).not.toMatch(/<(strong|em)>not/);
    const text = visibleText(html);
    for (const line of nasty.split('\n')) expect(text).toContain(line.trim());
    expect(text).toContain('<b>Ada</b> **L**');
    expect(text).toContain('The *Smiths* <3');
  });

  it('writes a short sneak peek with a highlight and at most three photos', () => {
    const many = [PHOTO_A, PHOTO_B, PHOTO_A, PHOTO_B];
    const written = writeFromTemplate(
      input({ kind: 'sneak_peek', updates: [update({ at: '2025-03-02T15:00:00Z', content: 'x '.repeat(200), photoUrls: many })] }),
    );
    expect(written.title).toBe('The Smiths sneak peek: March 1 – 14, 2025');
    expect(written.content.match(/!\[/g)).toHaveLength(3);
    expect(written.content.length).toBeLessThan(900);
    expect(written.content).toContain('coming soon');
  });
});

describe('openai writer against an OpenAI-compatible server', () => {
  let fake: FakeOpenAi;
  const log = { warn: vi.fn() };
  const writer = () => createOpenAiWriter({ apiKey: 'test-key', baseUrl: fake.baseUrl, model: 'test-model', timeoutMs: 500, log });

  beforeAll(async () => {
    fake = await startFakeOpenAi();
  });
  afterAll(() => fake.close());

  it("uses the model's Markdown, and gives it the vibe, context, updates and photo URLs", async () => {
    const content = `Hi all!\n\n## Ada Lovelace\n\nTomatoes!\n\n![tomato](${PHOTO_A})`;
    fake.answer({ kind: 'content', content: JSON.stringify({ content }) });
    const written = await writer().write(input());
    expect(written).toEqual({ title: 'The Smiths: March 1 – 14, 2025', content, writer: 'openai', fellBack: false });
    const request = fake.requests.at(-1);
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.authorization).toBe('Bearer test-key');
    expect(request?.body.model).toBe('test-model');
    const user = JSON.stringify(request?.body.messages);
    for (const expected of ['family', 'Grandma Rose', 'We planted tomatoes.', PHOTO_A, 'Ben Smith']) expect(user).toContain(expected);
  });

  it('falls back to the template writer when the model does not answer in time', async () => {
    fake.answer({ kind: 'hang' });
    const started = Date.now();
    const written = await writer().write(input());
    expect(Date.now() - started).toBeLessThan(5000);
    expect(written).toEqual({ ...writeFromTemplate(input()), fellBack: true });
    expect(log.warn).toHaveBeenCalled();
  });

  it.each([
    ['not JSON', { kind: 'content', content: 'Here is your newsletter: # Hello' }],
    ['JSON without content', { kind: 'content', content: JSON.stringify({ text: 'hi' }) }],
    ['empty content', { kind: 'content', content: JSON.stringify({ content: '   ' }) }],
    ['no message', { kind: 'content', content: null }],
    ['a cut-off answer', { kind: 'content', content: JSON.stringify({ content: 'Hi' }), finishReason: 'length' }],
    [
      'an invented photo',
      { kind: 'content', content: JSON.stringify({ content: '![x](/media/CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC)' }) },
    ],
    ['a server error', { kind: 'status', status: 500, body: { error: { message: 'boom' } } }],
    ['a refused key', { kind: 'status', status: 401, body: { error: { message: 'bad key' } } }],
  ] as const)('falls back to the template writer on %s', async (_label, answer) => {
    fake.answer(answer);
    const written = await writer().write(input());
    expect(written).toEqual({ ...writeFromTemplate(input()), fellBack: true });
  });
});
