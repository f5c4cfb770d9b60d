import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { loopDetail, member, owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const NO_EMAIL_YET = 'Add an email address first to get the newsletter by email.';

/** "Get the newsletter: by text / by email / both" on the join page and in Add Member, and what the owner sees. */
describe('join page: the choice comes with the email', () => {
  it('appears once an email is typed and is sent with the form; without an email the newsletter comes by text', async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    server.use(
      http.get('*/api/invites/abc123', () => HttpResponse.json({ loopName: 'The Walker Family', expiresAt: '2030-01-01T00:00:00.000Z' })),
      http.post('*/api/invites/abc123/join', async ({ request }) => {
        bodies.push(await request.json());
        return HttpResponse.json(
          { message: NO_EMAIL_YET, errors: [{ path: 'newsletterDelivery', message: NO_EMAIL_YET }] },
          { status: 400 },
        );
      }),
    );
    renderRoute('/join/abc123');
    const email = await screen.findByRole('textbox', { name: 'Email (Optional)' });
    expect(screen.queryByRole('radiogroup', { name: 'Get the newsletter' })).toBeNull();
    await user.type(screen.getByRole('textbox', { name: 'First Name' }), 'Margaret');
    await user.type(screen.getByRole('textbox', { name: 'Last Name' }), 'Walker');
    await user.type(screen.getByRole('textbox', { name: 'Phone Number' }), '4155550123');
    await user.type(email, 'gran@example.com');
    const choice = await screen.findByRole('radiogroup', { name: 'Get the newsletter' });
    await user.click(within(choice).getByRole('radio', { name: 'Both' }));
    await user.click(screen.getByRole('button', { name: 'Join Loop' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ email: 'gran@example.com', newsletterDelivery: 'both' });
    // The server's refusal goes under the field it names.
    expect(await within(choice.parentElement!).findByText(NO_EMAIL_YET)).toBeDefined();

    await user.clear(email);
    await waitFor(() => expect(screen.queryByRole('radiogroup', { name: 'Get the newsletter' })).toBeNull());
    await user.click(screen.getByRole('button', { name: 'Join Loop' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]).toMatchObject({ newsletterDelivery: 'text' });
  });
});

describe('the owner: Add Member and the Members list', () => {
  function serveLoop(members = loopDetail().members) {
    const adds: unknown[] = [];
    server.use(
      http.get('*/api/loops/7', () => HttpResponse.json(loopDetail({ members }))),
      http.get('*/api/loops/7/newsletters', () =>
        HttpResponse.json({ newsletters: [], nextNewsletterAt: null, nextReminderAt: null, paused: false, timeZone: 'Europe/London' }),
      ),
      http.get('*/api/loops/7/coming-issue', () => HttpResponse.json({ since: null, nextNewsletterAt: null, sent: [], silent: [] })),
      http.get('*/api/loops/7/reminder-questions', () => HttpResponse.json({ questions: [], vibeQuestions: [], lastQuestion: null })),
      http.post('*/api/loops/7/members', async ({ request }) => {
        adds.push(await request.json());
        return HttpResponse.json({ ok: true, notice: null }, { status: 201 });
      }),
    );
    return adds;
  }

  it('offers the choice in Add Member once an email is typed', async () => {
    const user = userEvent.setup();
    const adds = serveLoop();
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Members/ }));
    await user.click(await screen.findByRole('button', { name: 'Add Member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Member' });
    await user.type(within(dialog).getByRole('textbox', { name: 'First Name' }), 'Theo');
    await user.type(within(dialog).getByRole('textbox', { name: 'Last Name' }), 'Walker');
    await user.type(within(dialog).getByRole('textbox', { name: 'Phone Number' }), '4155550124');
    expect(within(dialog).queryByRole('radiogroup', { name: 'Get the newsletter' })).toBeNull();
    await user.type(within(dialog).getByRole('textbox', { name: 'Email (Optional)' }), 'theo@example.com');
    await user.click(within(dialog).getByRole('radio', { name: 'By email' }));
    await user.click(within(dialog).getByRole('button', { name: 'Add Member' }));
    await waitFor(() => expect(adds).toHaveLength(1));
    expect(adds[0]).toMatchObject({ email: 'theo@example.com', newsletterDelivery: 'email' });
  });

  it('shows the owner whose address is bouncing or not confirmed yet', async () => {
    const user = userEvent.setup();
    const base = member(2);
    serveLoop([
      member(2, { user: { ...base.user, newsletterDelivery: 'email', emailStatus: 'bouncing' } }),
      member(3, {
        user: { ...base.user, firstName: 'Theo', email: 'theo@example.com', newsletterDelivery: 'both', emailStatus: 'unconfirmed' },
      }),
    ]);
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Members/ }));
    expect(await screen.findByText('Bouncing: check the address')).toBeDefined();
    expect(screen.getByText('Email not confirmed yet')).toBeDefined();
  });
});
