import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

// Loop names and people's names go into texts: the forms hold them to the server's rule (the
// shared zod schemas), shown under the field, and nothing is sent.
const LINK = /can't contain a link or web address/;
const PHONE = /can't contain a phone number/;

/** Fails the test if the form reaches the server. */
function refuseCalls(method: 'post', path: string) {
  const calls: string[] = [];
  server.use(
    http[method](path, ({ request }) => {
      calls.push(request.url);
      return HttpResponse.json({ message: 'should not be sent' }, { status: 500 });
    }),
  );
  return calls;
}

describe('names that could phish are refused in the forms, under the field', () => {
  it('Create Loop: a Loop name with a web address', async () => {
    const user = userEvent.setup();
    server.use(http.get('*/api/loops', () => HttpResponse.json([])));
    const calls = refuseCalls('post', '*/api/loops');
    renderRoute('/', { user: owner });
    await user.click((await screen.findAllByRole('button', { name: /Create (Your First )?Loop/ }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create Loop' });
    const name = await within(dialog).findByRole('textbox', { name: 'Loop Name' });
    await user.type(name, 'URGENT bank alert: verify at evil.co/x');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Family' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create Loop' }));
    const message = await within(dialog).findByText(LINK);
    expect(message.textContent).toMatch(/^Loop name /);
    // Under the field and tied to it, so a screen reader reads it with the field.
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(name.getAttribute('aria-describedby')).toContain(message.id);
    expect(calls).toEqual([]);
  });

  it('Join: a first name with a phone number', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('*/api/invites/abc123', () => HttpResponse.json({ loopName: 'The Walker Family', expiresAt: '2030-01-01T00:00:00.000Z' })),
    );
    const calls = refuseCalls('post', '*/api/invites/abc123/join');
    renderRoute('/join/abc123');
    const first = await screen.findByRole('textbox', { name: 'First Name' });
    await user.type(first, 'Call 415 555 0101');
    await user.tab();
    const message = await screen.findByText(PHONE);
    expect(message.textContent).toMatch(/^First name /);
    expect(first.getAttribute('aria-describedby')).toContain(message.id);
    expect(calls).toEqual([]);
  });

  it('Sign Up: a last name with a link shortener', async () => {
    const user = userEvent.setup();
    server.use(
      http.get('*/api/user', () => HttpResponse.json({ message: 'Please log in to continue.' }, { status: 401 })),
      // The form asks for its proof-of-work on opening; none is needed here.
      http.get('*/api/proof-of-work', () => HttpResponse.json({ challenge: null })),
    );
    const calls = refuseCalls('post', '*/api/register');
    renderRoute('/auth');
    await user.click(await screen.findByRole('button', { name: "Don't have an account? Sign up" }));
    const last = await screen.findByRole('textbox', { name: 'Last Name' });
    await user.type(last, 'bit.ly/prize');
    await user.tab();
    const message = await screen.findByText(LINK);
    expect(message.textContent).toMatch(/^Last name /);
    expect(last.getAttribute('aria-describedby')).toContain(message.id);
    expect(calls).toEqual([]);
  });
});
