import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SimulatorEmail } from '@loop/shared/simulator';
import { owner, simulatorConfig } from '@/test/fixtures';
import { renderRoute, requests } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

const newsletter: SimulatorEmail = {
  id: 12,
  direction: 'outbound',
  from: 'Loop <loop@localhost>',
  to: 'grandma@example.com',
  subject: 'The Walker Family: issue 3',
  date: '2026-03-14T09:05:00.000Z',
  status: 'sent',
  kind: 'newsletter',
  headers: {
    'List-Unsubscribe': '<http://localhost/email/unsubscribe/abc>',
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    'Message-ID': '<12@localhost>',
  },
  text: 'The Walker Family\n\nTheo: we planted tomatoes.',
  html: '<!doctype html><html><body><h1>The Walker Family</h1><script>parent.document.title = "owned"</script></body></html>',
};
const confirm: SimulatorEmail = {
  ...newsletter,
  id: 11,
  to: 'theo@example.com',
  subject: 'Alice added you to The Walker Family’s newsletter: confirm',
  kind: 'confirm_address',
  status: 'failed',
  html: null,
  headers: {},
  text: 'Confirm: http://localhost/email/confirm/xyz',
};

function answer(emails: SimulatorEmail[]) {
  server.use(http.get('*/api/simulator/mail', () => HttpResponse.json({ emails })));
}

describe('Mail Simulator', () => {
  it('lists every e-mail with to whom, when, what for and where it stands', async () => {
    answer([newsletter, confirm]);
    renderRoute('/simulator/mail', { user: owner });
    const list = await screen.findByRole('list', { name: 'E-mails, newest first' });
    const items = within(list).getAllByRole('link');
    expect(items.map((item) => item.getAttribute('href'))).toEqual(['/simulator/mail?email=12', '/simulator/mail?email=11']);
    expect(items[0]!.textContent).toContain('The Walker Family: issue 3');
    expect(items[0]!.textContent).toContain('To grandma@example.com');
    expect(items[0]!.textContent).toContain('Newsletter');
    expect(items[0]!.textContent).toContain('Sent');
    expect(items[1]!.textContent).toContain('Confirm address');
    expect(items[1]!.textContent).toContain('Failed');
    expect(screen.getByText('Pick an e-mail')).toBeDefined();
    // A long subject wraps in the list rather than being cut short with an ellipsis.
    const subject = within(items[1]!).getByText(confirm.subject);
    expect(subject.className).not.toMatch(/\btruncate\b/);
    expect(subject.className).toContain('[overflow-wrap:anywhere]');
  });

  it('shows one in a sandboxed frame, never in the page, with its plain text and headers', async () => {
    const user = userEvent.setup();
    answer([newsletter, confirm]);
    renderRoute('/simulator/mail', { user: owner });
    await user.click(await screen.findByRole('link', { name: /issue 3/ }));
    const email = await screen.findByRole('article', { name: 'The Walker Family: issue 3' });
    const frame = within(email).getByTitle(/as it shows in an inbox/);
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe(newsletter.html);
    // Nothing of the e-mail's HTML is part of the page itself.
    expect(screen.queryByRole('heading', { name: 'The Walker Family', level: 1 })).toBeNull();
    expect(document.title).not.toBe('owned');

    await user.click(within(email).getByRole('tab', { name: 'Plain text' }));
    expect(within(email).getByText(/we planted tomatoes/)).toBeDefined();
    await user.click(within(email).getByRole('tab', { name: 'Headers' }));
    expect(within(email).getByText('List-Unsubscribe-Post')).toBeDefined();
    expect(within(email).getByText('<http://localhost/email/unsubscribe/abc>')).toBeDefined();
  });

  it('opens an e-mail without HTML on its plain text, and says so of one not in the list', async () => {
    answer([newsletter, confirm]);
    const { router } = renderRoute('/simulator/mail?email=11', { user: owner });
    const email = await screen.findByRole('article', { name: /Alice added you/ });
    expect(within(email).queryByRole('tab', { name: 'Rendered' })).toBeNull();
    expect(within(email).getByText('Confirm: http://localhost/email/confirm/xyz')).toBeDefined();
    await router.navigate('/simulator/mail?email=99');
    expect(await screen.findByText('No such e-mail')).toBeDefined();
  });

  it('shows a spinner while the e-mails load', async () => {
    server.use(http.get('*/api/simulator/mail', neverAnswer));
    renderRoute('/simulator/mail', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Mail Simulator' })).toBeDefined();
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
  });

  it('says what to do when there is no e-mail yet', async () => {
    answer([]);
    renderRoute('/simulator/mail', { user: owner });
    expect(await screen.findByRole('heading', { name: 'No e-mails yet' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Choose e-mail on your Profile' }).getAttribute('href')).toBe('/profile');
  });

  it('offers to try again when the list fails to load', async () => {
    const user = userEvent.setup();
    server.use(http.get('*/api/simulator/mail', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 })));
    renderRoute('/simulator/mail', { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load e-mails' })).toBeDefined();
    answer([newsletter]);
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: /issue 3/ })).toBeDefined();
  });

  it('is off, and asks nothing, while real e-mail is on', async () => {
    renderRoute('/simulator/mail', { user: owner, config: { ...simulatorConfig, mailTransport: 'smtp' } });
    expect(await screen.findByRole('heading', { name: 'The Mail Simulator is off' })).toBeDefined();
    expect(requests).not.toContain('GET /api/simulator/mail');
  });

  it('is linked from the account menu beside the Phone Simulator', async () => {
    const user = userEvent.setup();
    answer([]);
    renderRoute('/simulator/mail', { user: owner });
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    expect((await screen.findByRole('menuitem', { name: 'Mail Simulator' })).getAttribute('href')).toBe('/simulator/mail');
    expect(screen.getByRole('menuitem', { name: 'Phone Simulator' })).toBeDefined();
  });
});
