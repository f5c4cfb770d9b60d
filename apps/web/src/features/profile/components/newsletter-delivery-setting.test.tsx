import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { User } from '@loop/shared/auth';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const NO_EMAIL_YET = 'Add an email address first to get the newsletter by email.';

/** "Get the newsletter: by text / by email / both" on Profile, and where the address stands. */
describe('Profile: the newsletter by text, by email or both', () => {
  function profileServer(start: Partial<User> = {}) {
    let me: User = { ...owner, ...start };
    const puts: unknown[] = [];
    server.use(
      http.get('*/api/user', () => HttpResponse.json(me)),
      http.put('*/api/user', async ({ request }) => {
        const body = (await request.json()) as Partial<User>;
        puts.push(body);
        await delay(20);
        if (body.newsletterDelivery !== 'text' && !me.email) {
          return HttpResponse.json(
            { message: NO_EMAIL_YET, errors: [{ path: 'newsletterDelivery', message: NO_EMAIL_YET }] },
            { status: 400 },
          );
        }
        me = { ...me, ...body, emailStatus: body.newsletterDelivery === 'text' ? me.emailStatus : 'unconfirmed' };
        return HttpResponse.json(me);
      }),
    );
    return puts;
  }

  it('saves the choice at once and says to check the inbox', async () => {
    const user = userEvent.setup();
    // After renderRoute: its GET /api/user answers the first visit, this one every later one.
    renderRoute('/profile', { user: owner });
    const puts = profileServer();
    const choice = await screen.findByRole('radiogroup', { name: 'Get the newsletter' });
    expect(within(choice).getByRole('radio', { name: 'By text' }).getAttribute('aria-checked')).toBe('true');
    await user.click(within(choice).getByRole('radio', { name: 'By email' }));
    expect(await screen.findByText('Check your inbox to confirm')).toBeDefined();
    expect(puts).toEqual([{ newsletterDelivery: 'email' }]);
    expect(within(choice).getByRole('radio', { name: 'By email' }).getAttribute('aria-checked')).toBe('true');
    expect(await screen.findByText('We sent a link to ana.owner@example.com: open it to confirm')).toBeDefined();
  });

  it('shows the server’s refusal under the field, and keeps the saved choice', async () => {
    const user = userEvent.setup();
    renderRoute('/profile', { user: { ...owner, email: null } });
    profileServer({ email: null });
    const choice = await screen.findByRole('radiogroup', { name: 'Get the newsletter' });
    await user.click(within(choice).getByRole('radio', { name: 'Both' }));
    const error = await screen.findByText(NO_EMAIL_YET);
    expect(choice.getAttribute('aria-describedby')).toContain(error.id);
    expect(choice.getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(within(choice).getByRole('radio', { name: 'By text' }).getAttribute('aria-checked')).toBe('true'));
  });

  it('says when an address is unsubscribed or bouncing', async () => {
    renderRoute('/profile', { user: { ...owner, newsletterDelivery: 'both', emailStatus: 'bouncing' } });
    expect(await screen.findByText('Bouncing: check the address')).toBeDefined();
  });
});

describe('after unsubscribing from the newsletter emails', () => {
  it('says the newsletter now comes by text', async () => {
    renderRoute('/profile', { user: { ...owner, newsletterDelivery: 'email', emailStatus: 'unsubscribed' } });
    expect((await screen.findByTestId('newsletter-by-text-now')).textContent).toMatch(
      /^You unsubscribed from the newsletter emails, so the\s+newsletter now comes by text\./,
    );
  });

  it('says nothing of it while the emails go', async () => {
    renderRoute('/profile', { user: { ...owner, newsletterDelivery: 'email', emailStatus: 'confirmed' } });
    await screen.findByText('Confirmed');
    expect(screen.queryByTestId('newsletter-by-text-now')).toBeNull();
  });
});
