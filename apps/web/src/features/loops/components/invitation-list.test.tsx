import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Invitation } from '@loop/shared/invitations';
import type { LoopSummary } from '@loop/shared/loops';
import { loopDetail, owner } from '@/test/fixtures';
import { renderRoute, requests } from '@/test/render-route';
import { server } from '@/test/server';

const { members: _members, updates: _updates, role: _role, ...smiths } = loopDetail({ id: 7, name: 'Smith Family' });

function invitation(id: number, loopId: number, inviter: string, phoneEnd: string | null = null): Invitation {
  const [firstName = '', lastName = ''] = inviter.split(' ');
  return {
    id,
    loop: { id: loopId, name: 'Smith Family' },
    invitedBy: { firstName, lastName, phoneEnd },
    invitedAt: '2026-07-06T15:00:00.000Z',
    expiresAt: '2026-07-13T15:00:00.000Z',
  };
}

/** Two invitations to Loops of one name, from Alice and from Mallory; answers as the server gives them. */
function twoInvitations() {
  let waiting = [invitation(11, 7, 'Alice Abbot'), invitation(12, 8, 'Mallory M')];
  let mine: LoopSummary[] = [];
  server.use(
    http.get('*/api/invitations', () => HttpResponse.json(waiting)),
    http.get('*/api/loops', () => HttpResponse.json(mine)),
    http.post('*/api/invitations/:id/accept', ({ params }) => {
      const found = waiting.find((i) => i.id === Number(params.id));
      if (!found) return HttpResponse.json({ message: 'Invitation not found.' }, { status: 404 });
      waiting = waiting.filter((i) => i !== found);
      mine = [{ ...smiths, id: found.loop.id }];
      return HttpResponse.json({ id: found.id, loop: found.loop, status: 'active' });
    }),
    http.post('*/api/invitations/:id/decline', ({ params }) => {
      const found = waiting.find((i) => i.id === Number(params.id));
      if (!found) return HttpResponse.json({ message: 'Invitation not found.' }, { status: 404 });
      waiting = waiting.filter((i) => i !== found);
      return HttpResponse.json({ id: found.id, loop: found.loop, status: 'declined' });
    }),
  );
}

const region = () => screen.findByRole('region', { name: 'Invitations' });

describe('My Loops: lookalike invitations (decision 0053)', () => {
  it("tells two of one name from one name apart by the inviter's phone, and by the Loop's number when those match too", async () => {
    server.use(
      http.get('*/api/loops', () => HttpResponse.json([])),
      http.get('*/api/invitations', () =>
        HttpResponse.json([
          invitation(11, 7, 'Alicia Abbott', '0101'),
          invitation(12, 8, 'Alicia Abbott', '0199'),
          invitation(13, 9, 'Alicia Abbott', '0199'),
        ]),
      ),
    );
    renderRoute('/', { user: owner });
    const list = await region();
    expect(within(list).getByText(/^Alicia Abbott \(phone ending 0101\) invited you on /)).toBeDefined();
    expect(within(list).getAllByText(/^Alicia Abbott \(phone ending 0199\) invited you on /)).toHaveLength(2);
    expect(within(list).getByText('Smith Family')).toBeDefined();
    expect(within(list).getByText('Smith Family (Loop #8)')).toBeDefined();
    expect(within(list).getByText('Smith Family (Loop #9)')).toBeDefined();
  });
});

describe('My Loops: invitations (decision 0035)', () => {
  it('says it is loading, then lists each invitation with who sent it', async () => {
    server.use(
      http.get('*/api/loops', () => HttpResponse.json([])),
      http.get('*/api/invitations', async () => {
        await delay(300);
        return HttpResponse.json([invitation(11, 7, 'Alice Abbot')]);
      }),
    );
    renderRoute('/', { user: owner });
    expect(await screen.findByText('Loading invitations…')).toBeDefined();
    expect(screen.getByText('Loading invitations…').getAttribute('role')).toBe('status');
    const list = await region();
    expect(within(list).getByText('Smith Family')).toBeDefined();
    expect(within(list).getByText(/^Alice Abbot invited you on /)).toBeDefined();
    expect(within(list).getByRole('button', { name: 'Accept the invitation to Smith Family from Alice Abbot' })).toBeDefined();
    expect(within(list).getByRole('button', { name: 'Decline the invitation to Smith Family from Alice Abbot' })).toBeDefined();
  });

  it('shows nothing when there are none', async () => {
    server.use(http.get('*/api/loops', () => HttpResponse.json([smiths])));
    renderRoute('/', { user: owner });
    await screen.findByRole('link', { name: /Smith Family/ });
    expect(requests).toContain('GET /api/invitations');
    expect(screen.queryByRole('region', { name: 'Invitations' })).toBeNull();
    expect(screen.queryByText(/Loading invitations/)).toBeNull();
  });

  it('says when they could not be loaded, and tries again', async () => {
    let fail = true;
    server.use(
      http.get('*/api/loops', () => HttpResponse.json([])),
      http.get('*/api/invitations', () =>
        fail
          ? HttpResponse.json({ message: 'The database is not available.' }, { status: 503 })
          : HttpResponse.json([invitation(11, 7, 'Alice Abbot')]),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/', { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Failed to fetch invitations')).toBeDefined();
    expect(within(alert).getByText(/503|The database is not available/)).toBeDefined();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(within(await region()).getByText('Smith Family')).toBeDefined();
  });

  it('Accept joins that one Loop: a toast, the Loop among My Loops, the other invitation still waiting (keyboard only)', async () => {
    twoInvitations();
    const user = userEvent.setup();
    renderRoute('/', { user: owner });
    const list = await region();
    const accept = within(list).getByRole('button', { name: 'Accept the invitation to Smith Family from Alice Abbot' });
    accept.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByText('Success!')).toBeDefined();
    expect(screen.getByText("You've successfully joined the loop!")).toBeDefined();
    expect(await screen.findByRole('link', { name: /Smith Family/ })).toBeDefined();
    await waitFor(() => expect(within(list).queryByText(/^Alice Abbot/)).toBeNull());
    expect(within(list).getByText(/^Mallory M invited you/)).toBeDefined();
    expect(requests).toContain('POST /api/invitations/11/accept');
    expect(requests).not.toContain('POST /api/invitations/12/accept');
  });

  it('Decline asks first, then takes the invitation away with a toast; the section goes when none is left', async () => {
    twoInvitations();
    const user = userEvent.setup();
    renderRoute('/', { user: owner });
    const list = await region();
    await user.click(within(list).getByRole('button', { name: 'Decline the invitation to Smith Family from Mallory M' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Decline the invitation to Smith Family?' });
    expect(within(dialog).getByText(/Mallory M will see that you declined/)).toBeDefined();
    await user.click(within(dialog).getByRole('button', { name: 'Decline' }));
    expect(await screen.findByText('Invitation declined')).toBeDefined();
    await waitFor(() => expect(within(list).queryByText(/^Mallory M/)).toBeNull());
    expect(requests).toContain('POST /api/invitations/12/decline');
    // The last one, by keyboard: Escape on the dialog changes nothing, then Enter on Decline.
    await user.click(within(list).getByRole('button', { name: /^Decline the invitation to Smith Family from Alice Abbot/ }));
    await user.keyboard('{Escape}');
    expect(requests).not.toContain('POST /api/invitations/11/decline');
    await user.click(within(list).getByRole('button', { name: /^Decline the invitation to Smith Family from Alice Abbot/ }));
    const again = await screen.findByRole('alertdialog');
    within(again).getByRole('button', { name: 'Decline' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Invitations' })).toBeNull());
  });

  it('a failed answer shows the server’s words in an error toast and keeps the invitation', async () => {
    server.use(
      http.get('*/api/loops', () => HttpResponse.json([])),
      http.get('*/api/invitations', () => HttpResponse.json([invitation(11, 7, 'Alice Abbot')])),
      http.post('*/api/invitations/:id/accept', () =>
        HttpResponse.json(
          { message: 'This invitation has expired (invitations last 7 days). Ask whoever runs the Loop to send it again.' },
          { status: 409 },
        ),
      ),
    );
    const user = userEvent.setup();
    renderRoute('/', { user: owner });
    const list = await region();
    await user.click(within(list).getByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('Error')).toBeDefined();
    expect(screen.getByText(/^This invitation has expired/)).toBeDefined();
    expect(within(list).getByText('Smith Family')).toBeDefined();
  });
});
