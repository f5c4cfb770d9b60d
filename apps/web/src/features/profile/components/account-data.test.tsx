import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

describe('Profile: your data', () => {
  it('starts an export and shows its link and expiry once ready', async () => {
    let status: 'none' | 'ready' = 'none';
    server.use(
      http.post('*/api/user/export', () => {
        status = 'ready';
        return HttpResponse.json(
          { status: 'building', requestedAt: '2026-11-26T10:00:00Z', readyAt: null, expiresAt: null, bytes: null, downloadUrl: null },
          { status: 202 },
        );
      }),
      http.get('*/api/user/export', () =>
        HttpResponse.json(
          status === 'ready'
            ? {
                status,
                requestedAt: '2026-11-26T10:00:00Z',
                readyAt: '2026-11-26T10:01:00Z',
                expiresAt: '2026-11-27T10:01:00Z',
                bytes: 2_500_000,
                downloadUrl: '/api/user/export/7/abc',
              }
            : { status, requestedAt: null, readyAt: null, expiresAt: null, bytes: null, downloadUrl: null },
        ),
      ),
    );
    renderRoute('/profile', { user: owner });
    // Says what really happens (seconds of work, the link shown here), not "a few minutes".
    expect(await screen.findByText(/usually in a few seconds/)).toBeDefined();
    expect(screen.queryByText(/a few minutes/)).toBeNull();
    await userEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    expect(await screen.findByText(/Gathering your data/)).toBeDefined();
    const link = await screen.findByRole('link', { name: 'Download zip' }, { timeout: 15_000 });
    expect(link.getAttribute('href')).toBe('/api/user/export/7/abc');
    expect(screen.getByText(/Your data is ready \(2\.4 MB\)\. The link works until/)).toBeDefined();
  });

  it('lists the Loops the person runs, sends the hand-over chosen, and waits for the password and the typed DELETE', async () => {
    let sent: unknown;
    server.use(
      http.get('*/api/user/owned-loops', () =>
        HttpResponse.json([
          { id: 3, name: 'Book Club', memberCount: 4, candidates: [{ userId: 9, name: 'Ben Baker' }] },
          { id: 5, name: 'Just Me', memberCount: 1, candidates: [] },
        ]),
      ),
      http.delete('*/api/user', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ ok: true });
      }),
    );
    renderRoute('/profile', { user: owner });
    await userEvent.click(await screen.findByRole('button', { name: 'Delete my account' }));
    const dialog = await screen.findByRole('dialog');
    expect(await screen.findByText('You run these 2 Loops. Hand each to a member, or delete it for everyone:')).toBeDefined();
    expect((screen.getByLabelText('Book Club (4 members)') as HTMLSelectElement).value).toBe('9');
    expect((screen.getByLabelText('Just Me (1 member)') as HTMLSelectElement).value).toBe('delete');
    const submit = screen.getAllByRole('button', { name: 'Delete my account' }).find((b) => dialog.contains(b))!;
    expect(submit).toHaveProperty('disabled', true);
    await userEvent.type(screen.getByLabelText('Your password'), 'my password');
    await userEvent.type(screen.getByLabelText('Type DELETE to confirm'), 'DELETE');
    expect(submit).toHaveProperty('disabled', false);
    await userEvent.click(submit);
    await waitFor(() => expect(sent).toEqual({ password: 'my password', handOver: [{ loopId: 3, toUserId: 9 }], deleteLoops: [5] }));
  });
});
