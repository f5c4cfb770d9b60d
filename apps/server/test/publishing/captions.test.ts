import { describe, expect, it } from 'vitest';
import type { Clip } from '@loop/shared/media';
import { renderMarkdown } from '../../src/publishing/render-markdown';

// Decision 0041: the editor's caption of a photo, voice memo or video is the Markdown image title,
// drawn on the public page under the picture or player, as text.
describe('captions on the public page', () => {
  const memo = { kind: 'audio', url: '/media/memo_1', durationMs: 4000, width: null, height: null, poster: null } as unknown as Clip;

  it('draws a caption under a photo and under a player, escaped', () => {
    const html = renderMarkdown(
      '![Photo from Ada](/media/photo_1 "Grandma at <b>90</b>")\n\n![Voice memo from Ada, 0:04](/media/memo_1 "The garden")',
      undefined,
      new Map([['/media/memo_1', memo]]),
    );
    // Under the photo's link, not inside it: a caption is words, not a link.
    expect(html).toMatch(
      /<span class="photo-item"><a class="photo" href="\/media\/photo_1"[^>]*><img [^>]*><\/a><span class="photo-caption">Grandma at &lt;b&gt;90&lt;\/b&gt;<\/span><\/span>/,
    );
    expect(html).toContain('</audio><span class="clip-caption">The garden</span><span class="clip-label">Voice memo, 0:04</span>');
  });

  it('draws nothing extra without one', () => {
    const html = renderMarkdown('![Photo from Ada](/media/photo_1)');
    expect(html).not.toContain('caption');
  });
});
