import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Newsletter } from '@loop/shared/newsletters';
import { staff } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const draft: Newsletter = {
  id: 3,
  loopId: 7,
  kind: 'newsletter',
  status: 'draft',
  urlId: 'aaaaaaaaaaaaaaaaaaaaaa',
  title: 'The Walker Family newsletter',
  content: '## Hello\n\nNews.',
  writer: 'template',
  fellBack: false,
  periodStart: null,
  periodEnd: '2026-03-15T18:00:00.000Z',
  createdAt: '2026-03-15T18:00:00.000Z',
  sentAt: null,
  sendAt: null,
  approvedAt: null,
  skippedAt: null,
};

async function openEditor() {
  server.use(
    http.get('*/api/loops/7/newsletters/3/preview', () => HttpResponse.json(draft)),
    http.get('*/api/admin/loops/7', () => HttpResponse.json({ message: 'not needed here' }, { status: 404 })),
  );
  const view = renderRoute('/admin/loops/7/newsletters/3', { user: staff });
  const editor = await screen.findByRole('textbox');
  return { ...view, editor };
}

describe('newsletter editor: unsaved changes (item 7)', () => {
  it('asks before Back to Loop throws away edits, and stays when asked to', async () => {
    const user = userEvent.setup();
    const { editor, router } = await openEditor();
    await user.type(editor, ' More news.');
    await user.click(screen.getByRole('link', { name: 'Back to Loop' }));
    expect(await screen.findByRole('alertdialog', { name: 'Leave without saving?' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Keep Editing' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/admin/loops/7/newsletters/3');
    expect((editor as HTMLTextAreaElement).value).toContain('More news.');

    await user.click(screen.getByRole('link', { name: 'Back to Loop' }));
    await user.click(await screen.findByRole('button', { name: 'Leave Without Saving' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/loops/7'));
  });

  it('lets a person leave without asking when nothing changed', async () => {
    const user = userEvent.setup();
    const { router } = await openEditor();
    await user.click(screen.getByRole('link', { name: 'Back to Loop' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/loops/7'));
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('asks the browser before the tab closes with edits', async () => {
    const user = userEvent.setup();
    const { editor } = await openEditor();
    await user.type(editor, ' More.');
    const event = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(event);
    expect(event.defaultPrevented).toBe(true);
  });
});
