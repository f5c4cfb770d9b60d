import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { stickyFooterClassName } from '@/components/ui/dialog';
import { toastViewportWithDialogClassName } from '@/components/ui/toast';
import { loopDetail, owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

/** The selector the toasts' place depends on (toast.tsx): it must match the dialog Radix renders. */
const DIALOG_OPEN = 'body:has([role=dialog][data-state=open])';

/**
 * Issue 39: Add Member was taller than an 800 px window and a toast covered its buttons. jsdom has no
 * layout, so this checks the structure; e2e/tests/add-member-layout.test.ts measures it in Chromium.
 */
describe('Add Member fits the window and the toast stays off its buttons', () => {
  it('keeps Cancel and Add Member in a footer that sticks to the panel’s bottom, and moves toasts to the top while it is open', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('*/api/loops/7', () => HttpResponse.json(loopDetail())),
      http.get('*/api/loops/7/newsletters', () =>
        HttpResponse.json({ newsletters: [], nextNewsletterAt: null, nextReminderAt: null, paused: false, timeZone: 'Europe/London' }),
      ),
      http.get('*/api/loops/7/coming-issue', () => HttpResponse.json({ since: null, nextNewsletterAt: null, sent: [], silent: [] })),
      http.get('*/api/loops/7/reminder-questions', () => HttpResponse.json({ questions: [], vibeQuestions: [], lastQuestion: null })),
      http.post('*/api/loops/7/members', () => HttpResponse.json({ message: 'Loop is busy: try again in a minute.' }, { status: 503 })),
    );
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Members/ }));
    expect(document.querySelector(DIALOG_OPEN)).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Add Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    expect(document.querySelector(DIALOG_OPEN)).not.toBeNull();

    // The panel scrolls inside the window; the buttons' footer is the form's last child and sticks.
    expect(dialog.className).toContain('max-h-[calc(100dvh-2rem)]');
    expect(dialog.className).toContain('overflow-y-auto');
    const submit = within(dialog).getByRole('button', { name: 'Add Member' });
    const footer = submit.parentElement!;
    expect(within(footer).getByRole('button', { name: 'Cancel' })).toBeDefined();
    for (const name of stickyFooterClassName.split(' ')) expect(footer.classList).toContain(name);
    expect(footer.parentElement!.lastElementChild).toBe(footer);

    // A failure's toast shows while the dialog is open: its list carries the "dialog open" placement.
    await user.type(within(dialog).getByRole('textbox', { name: 'First Name' }), 'Theo');
    await user.type(within(dialog).getByRole('textbox', { name: 'Last Name' }), 'Walker');
    await user.type(within(dialog).getByRole('textbox', { name: 'Phone Number' }), '4155550124');
    await user.click(submit);
    // (Outside the modal dialog, so hidden from the accessibility tree while it is open: found in the DOM.)
    const list = await waitFor(() => {
      const toast = document.querySelector<HTMLElement>('[role=region] ol > li');
      expect(toast).not.toBeNull();
      return toast!.parentElement!;
    });
    for (const name of toastViewportWithDialogClassName.split(' ')) expect(list.classList).toContain(name);
    expect(list.classList).toContain('bottom-0');
  }, 60_000);
});
