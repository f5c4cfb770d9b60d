import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { User } from '@loop/shared/auth';
import { linkMessage } from '@loop/shared/text';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

/** The Profile page as the server answers it: GET /api/user follows every saved change. */
function profileServer() {
  let me: User = { ...owner };
  const bodies = { put: [] as unknown[], password: [] as unknown[], phone: [] as unknown[], verify: [] as unknown[] };
  server.use(
    http.get('*/api/user', () => HttpResponse.json(me)),
    http.get('*/api/proof-of-work', () => HttpResponse.json({ challenge: null })),
    http.put('*/api/user', async ({ request }) => {
      const body = (await request.json()) as Partial<User>;
      bodies.put.push(body);
      await delay(20);
      if (body.firstName === 'Limited') {
        return HttpResponse.json({ message: 'Too many changes from this account. Try again in 15 minutes.' }, { status: 429 });
      }
      // As the server does: a new address is the account's only once its link is followed (decision 0054).
      const { email: _asked, ...rest } = body;
      me = { ...me, ...rest };
      return HttpResponse.json(me);
    }),
    http.post('*/api/user/password', async ({ request }) => {
      const body = (await request.json()) as { currentPassword: string };
      bodies.password.push(body);
      if (body.currentPassword !== 'the right one') {
        return HttpResponse.json(
          { message: 'Your current password is not right. Check it and try again, or log out and use "Forgot password?".' },
          { status: 400 },
        );
      }
      return HttpResponse.json({ ok: true });
    }),
    http.post('*/api/user/phone', async ({ request }) => {
      const body = (await request.json()) as { phoneNumber: string; currentPassword: string };
      bodies.phone.push(body);
      if (body.currentPassword !== 'the right one') {
        return HttpResponse.json(
          {
            message: 'Your current password is not right. Check it and try again, or log out and use "Forgot password?".',
            errors: [{ path: 'currentPassword', message: 'This is not your current password' }],
          },
          { status: 400 },
        );
      }
      return HttpResponse.json(
        { phoneNumber: body.phoneNumber, expiresInSeconds: 600, resendAfterSeconds: 30, simulatedText: 'Loop: 123456 is your code' },
        { status: 202 },
      );
    }),
    http.post('*/api/user/phone/verify', async ({ request }) => {
      const body = (await request.json()) as { phoneNumber: string; code: string };
      bodies.verify.push(body);
      if (body.code.replace(/\s/g, '') !== '123456')
        return HttpResponse.json({ message: 'That code is not right. Check the text and try again.' }, { status: 400 });
      me = { ...me, phoneNumber: body.phoneNumber };
      return HttpResponse.json(me);
    }),
  );
  return bodies;
}

describe('Profile: name, email, phone number and password', () => {
  it('edits the name and email, refuses a link in a name under the field, and says what the server refused', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: owner });
    const bodies = profileServer();
    const details = await screen.findByRole('form', { name: 'Your details' });
    const save = within(details).getByRole('button', { name: 'Save Changes' });
    expect(save).toHaveProperty('disabled', true);

    const first = within(details).getByLabelText('First Name');
    await user.clear(first);
    await user.type(first, 'Win a prize at evil.co');
    await user.click(save);
    expect(await within(details).findByText(linkMessage('First name'))).toBeDefined();
    expect(bodies.put).toEqual([]);

    await user.clear(first);
    await user.type(first, 'Limited');
    await user.click(save);
    expect(await within(details).findByRole('alert')).toHaveProperty(
      'textContent',
      'Too many changes from this account. Try again in 15 minutes.',
    );

    await user.clear(first);
    await user.type(first, 'Anna');
    await user.click(save);
    expect(await screen.findByText('Profile updated successfully!')).toBeDefined();
    expect(within(details).queryByRole('alert')).toBeNull();

    const email = within(details).getByLabelText('Email');
    await user.clear(email);
    await user.type(email, 'Anna.New@Example.com');
    await user.keyboard('{Enter}');
    expect(
      await screen.findByText('We sent a link to anna.new@example.com. Your email changes to it once you follow the link.'),
    ).toBeDefined();
    expect(bodies.put.at(-1)).toEqual({ firstName: 'Anna', lastName: 'Owner', email: 'anna.new@example.com' });
    await waitFor(() => expect(within(details).getByLabelText('Email')).toHaveProperty('value', owner.email));
  });

  it('changes the password with the current one, and shows a wrong one under the form', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: owner });
    const bodies = profileServer();
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(within(form).getByLabelText('Current Password'), 'a wrong one');
    await user.type(within(form).getByLabelText(/New Password/), 'short');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await within(form).findByText('Password must be at least 8 characters')).toBeDefined();
    await user.clear(within(form).getByLabelText(/New Password/));
    await user.type(within(form).getByLabelText(/New Password/), 'a brand new passphrase');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect((await within(form).findByRole('alert')).textContent).toMatch(/^Your current password is not right/);

    await user.clear(within(form).getByLabelText('Current Password'));
    await user.type(within(form).getByLabelText('Current Password'), 'the right one');
    await user.click(within(form).getByRole('button', { name: 'Change Password' }));
    expect(await screen.findByText('Password changed successfully!')).toBeDefined();
    expect(bodies.password.at(-1)).toEqual({ currentPassword: 'the right one', newPassword: 'a brand new passphrase' });
    expect(within(form).getByLabelText('Current Password')).toHaveProperty('value', '');
  });

  it('changes the phone number with the current password and the code texted to the new one', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: owner });
    const bodies = profileServer();
    await user.click(await screen.findByRole('button', { name: 'Change phone number' }));
    const form = screen.getByRole('form', { name: 'New phone number' });
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await within(form).findByText('Phone number is required')).toBeDefined();
    expect(within(form).getByText('Enter your current password')).toBeDefined();
    await user.type(within(form).getByRole('textbox', { name: /New Phone Number/ }), '4155550199');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(bodies.phone).toEqual([]);
    await user.type(within(form).getByLabelText(/Current Password/), 'a wrong one');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));
    expect(await within(form).findByText(/^Your current password is not right/)).toBeDefined();
    await user.clear(within(form).getByLabelText(/Current Password/));
    await user.type(within(form).getByLabelText(/Current Password/), 'the right one');
    await user.click(within(form).getByRole('button', { name: 'Send code' }));

    const step = await screen.findByRole('form', { name: 'Code for the new phone number' });
    expect(bodies.phone.at(-1)).toEqual({ phoneNumber: '+14155550199', currentPassword: 'the right one' });
    expect(within(step).getByRole('note', { name: 'Simulated text' })).toBeDefined();
    await user.type(within(step).getByLabelText(/Code/), '000000');
    await user.click(within(step).getByRole('button', { name: 'Verify and Change Number' }));
    expect((await within(step).findByRole('alert')).textContent).toBe('That code is not right. Check the text and try again.');
    await user.clear(within(step).getByLabelText(/Code/));
    await user.type(within(step).getByLabelText(/Code/), '123 456');
    await user.click(within(step).getByRole('button', { name: 'Verify and Change Number' }));
    expect(await screen.findByText('Phone number updated successfully!')).toBeDefined();
    expect(bodies.verify.at(-1)).toEqual({ phoneNumber: '+14155550199', code: '123 456' });
    expect(await screen.findByText('+1 415 555 0199')).toBeDefined();
    expect(screen.queryByRole('form', { name: 'Code for the new phone number' })).toBeNull();
  });
});
