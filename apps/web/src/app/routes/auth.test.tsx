import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SignUpStarted } from '@loop/shared/auth';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const COMMON = 'This password is one of the most common passwords, which attackers try first. Please choose another.';
const WRONG = 'That code is not right. Check the text and try again.';
const started: SignUpStarted = { phoneNumber: '+14155550160', expiresInSeconds: 600, resendAfterSeconds: 30, simulatedText: null };

/** The server as it answers sign-up: a common password refused with its field, then a code. */
function serveSignUp() {
  let signedIn = false;
  server.use(
    http.get('*/api/proof-of-work', () => HttpResponse.json({ challenge: null })),
    http.post('*/api/register', async ({ request }) => {
      const body = (await request.json()) as { password: string };
      if (body.password === '12345678') {
        return HttpResponse.json(
          { message: COMMON, errors: [{ path: 'password', message: 'This password is too common' }] },
          { status: 400 },
        );
      }
      return HttpResponse.json(started);
    }),
    http.post('*/api/register/verify', async ({ request }) => {
      const { code } = (await request.json()) as { code: string };
      if (code !== '123456') return HttpResponse.json({ message: WRONG }, { status: 400 });
      signedIn = true;
      return HttpResponse.json({ ok: true });
    }),
    http.get('*/api/user', () => (signedIn ? HttpResponse.json(owner) : HttpResponse.json({ message: 'Not signed in' }, { status: 401 }))),
    http.get('*/api/loops', () => HttpResponse.json([])),
    http.get('*/api/invitations', () => HttpResponse.json([])),
  );
}

async function fillSignUp(password: string) {
  const user = userEvent.setup();
  renderRoute('/auth');
  // After renderRoute: its own GET /api/user (signed out) would answer first.
  serveSignUp();
  await user.click(await screen.findByRole('button', { name: "Don't have an account? Sign up" }));
  await user.type(await screen.findByRole('textbox', { name: 'First Name' }), 'Cara');
  await user.type(screen.getByRole('textbox', { name: 'Last Name' }), 'Jones');
  await user.type(screen.getByRole('textbox', { name: 'Email' }), 'cara@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByRole('textbox', { name: 'Phone Number' }), '4155550160');
  return user;
}

describe('Sign Up', () => {
  it('shows a refused common password under its field, not in a toast over the button', async () => {
    const user = await fillSignUp('12345678');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password.getAttribute('aria-invalid')).toBe('true'));
    const form = password.closest('form') as HTMLFormElement;
    expect(within(form).getByText(COMMON)).toBeDefined();
    expect(within(screen.getByRole('region', { name: /Notifications/ })).queryByText(COMMON)).toBeNull();
    expect(document.activeElement).toBe(password);
  });

  it('shows a wrong code under the code field, and nothing of it is left on My Loops after the right one', async () => {
    const user = await fillSignUp('a long enough password');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    const code = await screen.findByRole('textbox', { name: 'Code' });
    await user.type(code, '000000');
    await user.click(screen.getByRole('button', { name: 'Verify and Sign Up' }));
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(within(code.closest('form') as HTMLFormElement).getByText(WRONG)).toBeDefined();
    await user.clear(code);
    await user.type(code, '123456');
    await user.click(screen.getByRole('button', { name: 'Verify and Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'My Loops' })).toBeDefined();
    expect(screen.queryByText(WRONG)).toBeNull();
  });
});

describe('/auth', () => {
  it('opens on Login, and the toggle switches to Sign Up and back', async () => {
    const user = userEvent.setup();
    server.use(http.get('*/api/proof-of-work', () => HttpResponse.json({ challenge: null })));
    renderRoute('/auth');
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeDefined();
    expect(screen.getByRole('textbox', { name: 'Email' })).toBeDefined();
    expect(screen.getByLabelText('Password')).toBeDefined();
    await user.click(screen.getByRole('button', { name: "Don't have an account? Sign up" }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeDefined();
    expect(screen.getByRole('textbox', { name: 'First Name' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Already have an account? Login' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Welcome back' })).toBeDefined();
  });

  it('sends a signed-in person to My Loops', async () => {
    server.use(http.get('*/api/loops', () => HttpResponse.json([])));
    renderRoute('/auth', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'My Loops' })).toBeDefined();
  });
});

describe('a reload during sign-up', () => {
  it('opens the code step again with the phone masked; the code and "Resend code" go without the phone', async () => {
    const user = userEvent.setup();
    const sent: unknown[] = [];
    renderRoute('/auth');
    serveSignUp();
    server.use(
      http.get('*/api/register/pending', () =>
        HttpResponse.json({ signUp: { maskedPhoneNumber: '+1 •••••••• 60', expiresInSeconds: 577, resendAfterSeconds: 0 } }),
      ),
      http.post('*/api/register/resend', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ ...started, phoneNumber: '+1 •••••••• 60' });
      }),
      http.post('*/api/register/verify', async ({ request }) => {
        sent.push(await request.json());
        return HttpResponse.json({ message: WRONG }, { status: 400 });
      }),
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Create your account' })).toBeDefined();
    expect(screen.getByRole('status').textContent).toBe('We texted a code to +1 •••••••• 60');
    await user.click(screen.getByRole('button', { name: 'Resend code' }));
    await waitFor(() => expect(sent).toEqual([{}]));
    expect(screen.getByRole('status').textContent).toBe('We texted a code to +1 •••••••• 60');
    await user.type(screen.getByRole('textbox', { name: 'Code' }), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify and Sign Up' }));
    await waitFor(() => expect(sent[1]).toEqual({ code: '000000' }));
    // "Change number" goes back to the form.
    await user.click(screen.getByRole('button', { name: 'Change number' }));
    expect(await screen.findByRole('textbox', { name: 'First Name' })).toBeDefined();
  });
});
