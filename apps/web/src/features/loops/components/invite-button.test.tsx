import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { InviteLinkStatus } from '@loop/shared/loops';
import { server } from '@/test/server';
import { InviteButton } from './invite-button';

// The owner sees who joined through the Loop's invite links and stops a leaked one by making a
// new link (decision 0053).
describe('Generate Invite Link: the joins through the link', () => {
  it('lists who joined this week with the limits, and "Make a new link" replaces the link', async () => {
    let made = 0;
    const status = (): InviteLinkStatus => ({
      link: { inviteUrl: `/join/code${made}`, code: `code${made}`, expiresAt: '2030-01-08T00:00:00.000Z' },
      recentJoins: [
        { memberId: 5, firstName: 'Stranger', lastName: 'One', joinedAt: '2030-01-01T10:00:00.000Z', status: 'pending' },
        { memberId: 4, firstName: 'Bea', lastName: 'Friend', joinedAt: '2030-01-01T09:00:00.000Z', status: 'active' },
      ],
      limits: { perHour: 10, perDay: 30 },
    });
    server.use(
      http.post('*/api/loops/7/invite', () => {
        made++;
        const { link } = status();
        return HttpResponse.json(link, { status: 201 });
      }),
      http.get('*/api/loops/7/invite', () => HttpResponse.json(status())),
    );
    const user = userEvent.setup();
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <InviteButton loopId={7} loopName="Book Club" />
      </QueryClientProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'Generate Invite Link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite people to Book Club' });
    expect(within(dialog).getByRole('textbox', { name: 'Invite link' })).toHaveProperty('value', `${window.location.origin}/join/code1`);
    const joins = await within(dialog).findByRole('region', { name: 'Joined through your invite links this week' });
    expect(within(joins).getByText('Stranger One')).toBeDefined();
    expect(within(joins).getByText(/^Invited, no answer yet · /)).toBeDefined();
    expect(within(joins).getByText(/^Joined · /)).toBeDefined();
    expect(within(joins).getByText(/At most 10 people an hour and 30 a day/)).toBeDefined();
    expect(within(dialog).getByText(/A new link replaces the old one, which stops working/)).toBeDefined();

    await user.click(within(dialog).getByRole('button', { name: 'Make a new link' }));
    expect(await within(dialog).findByDisplayValue(`${window.location.origin}/join/code2`)).toBeDefined();
    expect(made).toBe(2);
  });
});
