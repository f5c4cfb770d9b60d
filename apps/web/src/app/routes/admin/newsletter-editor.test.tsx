import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { RenderNewsletterAnswer } from '@loop/shared/newsletters';
import { newsletterDraft, staff } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

const CONTENT = `Hello from the Walkers.

## Ada Walker

![Photo from Ada](/media/photo_1)

![Voice memo from Ada, 0:04](/media/memo_1)

## Ben Walker

News from Ben.
`;

const draft = newsletterDraft({ content: CONTENT });

/** The API as the server answers it: saves are kept, and the preview is "the page" for what was sent. */
function api(options: { failSaves?: number } = {}) {
  const saves: string[] = [];
  const renders: string[] = [];
  let failures = options.failSaves ?? 0;
  let stored = draft;
  server.use(
    http.get('*/api/loops/7/newsletters/3/preview', () => HttpResponse.json(stored)),
    http.get('*/api/admin/loops/7', () => HttpResponse.json({ message: 'not needed here' }, { status: 404 })),
    http.put('*/api/loops/7/newsletters/3', async ({ request }) => {
      const { content } = (await request.json()) as { content: string };
      if (failures > 0) {
        failures--;
        return HttpResponse.json({ error: 'internal', message: 'The server could not save it just now.' }, { status: 500 });
      }
      saves.push(content);
      stored = { ...stored, content };
      return HttpResponse.json({ newsletter: stored });
    }),
    http.post('*/api/loops/7/newsletters/3/render', async ({ request }) => {
      const { content } = (await request.json()) as { content: string };
      renders.push(content);
      const answer: RenderNewsletterAnswer = {
        html: `<html><body><main>${content.replace(/</g, '&lt;')}</main></body></html>`,
        media: {
          '/media/photo_1': { kind: 'photo', poster: null, preview: '/media/photo_1/640' },
          '/media/memo_1': { kind: 'audio', poster: null },
        },
      };
      return HttpResponse.json(answer);
    }),
  );
  return { saves, renders };
}

async function openEditor() {
  const view = renderRoute('/admin/loops/7/newsletters/3', { user: staff });
  const editor = await screen.findByRole('textbox', { name: 'Newsletter content' });
  return { ...view, editor };
}

/** Types at the end of the editor's first paragraph. */
function typeInto(editor: HTMLElement, text: string) {
  const paragraph = editor.querySelector('p');
  if (!paragraph?.firstChild) throw new Error('no paragraph');
  paragraph.firstChild.textContent = `${paragraph.firstChild.textContent ?? ''}${text}`;
  fireEvent.input(editor);
}

describe('newsletter editor: what it shows', () => {
  it('shows photos and voice memos as themselves, with captions and move and remove buttons', async () => {
    api();
    await openEditor();
    const photo = await screen.findByRole('group', { name: 'Photo: Photo from Ada' });
    // One of the photo's stored smaller sizes, never the largest (/media/photo_1 itself).
    await waitFor(() => expect(within(photo).getByRole('img', { name: 'Photo from Ada' }).getAttribute('src')).toBe('/media/photo_1/640'));
    const memo = await screen.findByRole('group', { name: 'Voice memo: Voice memo from Ada, 0:04' });
    await waitFor(() => expect(memo.querySelector('audio[controls][src="/media/memo_1"]')).not.toBeNull());
    expect(within(memo).getByRole('textbox', { name: 'Caption for Voice memo from Ada, 0:04' })).toBeDefined();
    expect(within(memo).getByRole('button', { name: 'Remove Voice memo from Ada, 0:04' })).toBeDefined();
    expect(screen.queryByText(/!\[Voice memo/)).toBeNull();
  });

  it('shows the live preview of what is on screen, drawn by the server', async () => {
    const { renders } = api();
    await openEditor();
    const frame = await screen.findByTitle('Live preview of the newsletter');
    expect(frame.getAttribute('srcdoc')).toContain('Hello from the Walkers.');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(renders[0]).toBe(CONTENT);
  });
});

describe('newsletter editor: a sent newsletter', () => {
  it('is read-only: no toolbar, no move or remove buttons, captions cannot change', async () => {
    api();
    server.use(
      http.get('*/api/loops/7/newsletters/3/preview', () =>
        HttpResponse.json({
          ...draft,
          status: 'sent',
          sentAt: '2026-03-16T18:00:00.000Z',
          content: draft.content.replace('(/media/memo_1)', '(/media/memo_1 "Garden")'),
        }),
      ),
    );
    const { editor } = await openEditor();
    expect(editor.getAttribute('contenteditable')).toBe('false');
    const memo = await screen.findByRole('group', { name: 'Voice memo: Voice memo from Ada, 0:04' });
    expect((within(memo).getByRole('textbox') as HTMLInputElement).readOnly).toBe(true);
    expect(within(memo).queryAllByRole('button')).toEqual([]);
    expect(screen.queryByRole('toolbar', { name: 'Formatting' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save Changes' })).toBeNull();
  });
});

describe('newsletter editor: editing and autosave', () => {
  it('captions a voice memo, moves a photo, saves on its own, and the preview follows', async () => {
    const user = userEvent.setup();
    const { saves, renders } = api();
    await openEditor();
    const caption = await screen.findByRole('textbox', { name: 'Caption for Voice memo from Ada, 0:04' });
    await user.type(caption, 'The garden');
    await user.click(screen.getByRole('button', { name: 'Move Photo from Ada down' }));
    const moved = '![Voice memo from Ada, 0:04](/media/memo_1 "The garden")\n\n![Photo from Ada](/media/photo_1)';
    await waitFor(() => expect(saves.at(-1), JSON.stringify(saves)).toContain(moved), { timeout: 10_000 });
    expect(await screen.findByText('Saved')).toBeDefined();
    await waitFor(() => expect(renders.at(-1)).toBe(saves.at(-1)));
    expect(screen.getByTitle('Live preview of the newsletter').getAttribute('srcdoc')).toContain('The garden');
  });

  it('reorders sections with the keyboard', async () => {
    const user = userEvent.setup();
    const { saves } = api();
    await openEditor();
    const up = await screen.findByRole('button', { name: 'Move Ben Walker up' });
    up.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Ben Walker moved to position 1 of 2.')).toBeDefined();
    await waitFor(() => expect(saves).toHaveLength(1), { timeout: 10_000 });
    expect(saves[0]!.indexOf('## Ben Walker')).toBeLessThan(saves[0]!.indexOf('## Ada Walker'));
    // The keyboard stays on the moved section.
    await waitFor(() => expect(document.activeElement?.getAttribute('aria-label')).toBe('Move Ben Walker down'));
  });

  it('refuses a link that is not on the web', async () => {
    const user = userEvent.setup();
    api();
    await openEditor();
    await user.click(await screen.findByRole('button', { name: 'Link' }));
    await user.type(screen.getByLabelText('Link address'), 'javascript:alert(1)');
    await user.click(screen.getByRole('button', { name: 'Apply Link' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/must start with https:\/\/ or http:\/\//);
  });

  it('says when a save failed, and Try Again saves', async () => {
    const user = userEvent.setup();
    const { saves } = api({ failSaves: 1 });
    const { editor } = await openEditor();
    typeInto(editor, ' More news.');
    expect((await screen.findByText(/Not saved: 500/, undefined, { timeout: 10_000 })).textContent).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(saves).toHaveLength(1));
    expect(saves[0]).toContain('Hello from the Walkers. More news.');
    expect(await screen.findByText('Saved')).toBeDefined();
  });
});

describe('newsletter editor: unsaved changes', () => {
  it('asks before Back to Loop throws away edits, and stays when asked to', async () => {
    const user = userEvent.setup();
    api({ failSaves: 5 });
    const { editor, router } = await openEditor();
    typeInto(editor, ' More news.');
    await user.click(screen.getByRole('link', { name: 'Back to Loop' }));
    expect(await screen.findByRole('alertdialog', { name: 'Leave without saving?' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Keep Editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/admin/loops/7/newsletters/3');
    expect(editor.textContent).toContain('More news.');

    await user.click(screen.getByRole('link', { name: 'Back to Loop' }));
    await user.click(await screen.findByRole('button', { name: 'Leave Without Saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/loops/7'));
  });

  it('lets a person leave without asking when nothing changed', async () => {
    const user = userEvent.setup();
    api();
    const { router } = await openEditor();
    await user.click(screen.getByRole('link', { name: 'Back to Loop' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/loops/7'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks the browser before the tab closes with edits', async () => {
    api({ failSaves: 5 });
    const { editor } = await openEditor();
    typeInto(editor, ' More.');
    await waitFor(() => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      expect(event.defaultPrevented).toBe(true);
    });
  });
});

describe('newsletter editor: loading and errors', () => {
  it('shows a spinner under "Edit Newsletter Draft" while the newsletter loads', async () => {
    server.use(http.get('*/api/loops/7/newsletters/3/preview', neverAnswer));
    renderRoute('/admin/loops/7/newsletters/3', { user: staff });
    expect(await screen.findByRole('heading', { level: 1, name: 'Edit Newsletter Draft' })).toBeDefined();
    expect(screen.getByText('Make changes to the newsletter before sending it to loop members')).toBeDefined();
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
    expect(screen.queryByRole('textbox', { name: 'Newsletter content' })).toBeNull();
  });

  it('says "Failed to load newsletter" when it fails to load, and Try again loads it', async () => {
    const user = userEvent.setup();
    api();
    let fail = true;
    server.use(
      http.get('*/api/loops/7/newsletters/3/preview', () =>
        fail ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }) : HttpResponse.json(draft),
      ),
    );
    renderRoute('/admin/loops/7/newsletters/3', { user: staff });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load newsletter' })).toBeDefined();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('textbox', { name: 'Newsletter content' })).toBeDefined();
  });
});
