import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const wrongPassword = 'Your current password is not right. Check it and try again, or log out and use "Forgot password?".';
const guarded = 'This account had many failed log-ins: set your phone PIN by texting PIN and four digits to Loop for now.';

/** PUT /api/user/phone-pin as the server answers it (routes/api/user/index.ts): 204, 400 for a wrong password, 429 when guarded. */
function pinServer() {
  const bodies: unknown[] = [];
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined;
  server.use(
    http.put('*/api/user/phone-pin', async ({ request }) => {
      const body = (await request.json()) as { pin: string; currentPassword: string };
      bodies.push(body);
      if (held) await held;
      if (body.currentPassword === 'guarded') return HttpResponse.json({ message: guarded }, { status: 429 });
      if (body.currentPassword !== 'the right one') return HttpResponse.json({ message: wrongPassword }, { status: 400 });
      await delay(10);
      return new HttpResponse(null, { status: 204 });
    }),
  );
  return {
    bodies,
    /** The next answers wait until `release()`. */
    hold() {
      held = new Promise((resolve) => {
        release = () => {
          held = undefined;
          resolve();
        };
      });
      return () => release();
    },
  };
}

describe('Profile: the phone PIN card', () => {
  it('says what the PIN is for', async () => {
    renderRoute('/profile', { user: owner });
    const form = await screen.findByRole('form', { name: 'Phone PIN' });
    expect(within(form).getByText(/to hear your Loops’|to hear your Loops'/)).toBeDefined();
    expect(within(form).getByText(/by calling Loop's number/)).toBeDefined();
    expect(within(form).getByLabelText(/New PIN/)).toHaveProperty('inputMode', 'numeric');
  });

  it('refuses anything but four digits and an empty password under the fields, before asking the server', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: owner });
    const pins = pinServer();
    const form = await screen.findByRole('form', { name: 'Phone PIN' });
    await user.click(within(form).getByRole('button', { name: 'Save PIN' }));
    expect(await within(form).findByText('A phone PIN is four digits, such as 4821')).toBeDefined();
    expect(within(form).getByText('Enter your current password')).toBeDefined();
    await user.type(within(form).getByLabelText(/New PIN/), '12a4');
    await user.type(within(form).getByLabelText('Current Password'), 'the right one');
    await user.click(within(form).getByRole('button', { name: 'Save PIN' }));
    expect(await within(form).findByText('A phone PIN is four digits, such as 4821')).toBeDefined();
    expect(pins.bodies).toEqual([]);
  });

  it('sets the PIN with the current password: busy while sent, a wrong password under the form, then a toast and an empty form', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: owner });
    const pins = pinServer();
    const form = await screen.findByRole('form', { name: 'Phone PIN' });
    await user.type(within(form).getByLabelText(/New PIN/), '4821');
    await user.type(within(form).getByLabelText('Current Password'), 'a wrong one');
    await user.click(within(form).getByRole('button', { name: 'Save PIN' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(wrongPassword);

    await user.clear(within(form).getByLabelText('Current Password'));
    await user.type(within(form).getByLabelText('Current Password'), 'the right one');
    const release = pins.hold();
    await user.click(within(form).getByRole('button', { name: 'Save PIN' }));
    await waitFor(() => expect(within(form).getByRole('button', { name: 'Save PIN' }).getAttribute('aria-busy')).toBe('true'));
    expect(within(form).getByRole('button', { name: 'Save PIN' })).toHaveProperty('disabled', true);
    release();
    expect(await screen.findByText('Phone PIN saved!')).toBeDefined();
    expect(pins.bodies.at(-1)).toEqual({ pin: '4821', currentPassword: 'the right one' });
    expect(within(form).queryByRole('alert')).toBeNull();
    expect(within(form).getByLabelText(/New PIN/)).toHaveProperty('value', '');
    expect(within(form).getByLabelText('Current Password')).toHaveProperty('value', '');
    expect(within(form).getByRole('button', { name: 'Save PIN' })).toHaveProperty('disabled', false);
  });

  it('says so when the account is guarded after many failed log-ins', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: owner });
    pinServer();
    const form = await screen.findByRole('form', { name: 'Phone PIN' });
    await user.type(within(form).getByLabelText(/New PIN/), '4821');
    await user.type(within(form).getByLabelText('Current Password'), 'guarded');
    await user.click(within(form).getByRole('button', { name: 'Save PIN' }));
    expect((await within(form).findByRole('alert')).textContent).toBe(guarded);
  });
});
