import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminLoop, AdminLoopDetail } from '@loop/shared/admin';
import { loopDetail, staff } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

function adminLoop(paused: boolean): AdminLoop {
  const { members: _members, updates: _updates, role: _role, ...summary } = loopDetail({ paused });
  return summary as AdminLoop;
}

describe('/admin All Loops: the state and the action apart', () => {
  it('says "Active" as text beside a "Pause" button, then "Paused" beside "Resume"', async () => {
    const user = userEvent.setup();
    let paused = false;
    server.use(
      http.get('*/api/admin/stats', () =>
        HttpResponse.json({ totalLoops: 1, totalMembers: 2, totalUpdates: 0, loopGrowth: [], memberGrowth: [] }),
      ),
      http.get('*/api/admin/newsletters', () => HttpResponse.json([])),
      http.get('*/api/admin/loops', () => HttpResponse.json([adminLoop(paused)])),
      http.post('*/api/admin/loops/7/toggle-pause', () => {
        paused = !paused;
        return HttpResponse.json(adminLoop(paused));
      }),
    );
    renderRoute('/admin', { user: staff });
    const pause = await screen.findByRole('button', { name: 'Pause The Walker Family' });
    const row = pause.closest('tr') as HTMLTableRowElement;
    expect(within(row).getByText('Active')).toBeDefined();
    expect(within(row).queryByRole('button', { name: /Active/ })).toBeNull();
    await user.click(pause);
    expect(await within(row).findByRole('button', { name: 'Resume The Walker Family' })).toBeDefined();
    expect(within(row).getByText('Paused')).toBeDefined();
    expect(within(row).queryByRole('button', { name: /Paused/ })).toBeNull();
  });
});

describe('/admin/loops/{id} in simulator mode', () => {
  it('says delivery is not tracked instead of "Delivered 0", and lists members as cards too', async () => {
    const detail: AdminLoopDetail = {
      ...loopDetail(),
      newsletters: [
        {
          id: 3,
          loopId: 7,
          kind: 'newsletter',
          status: 'sent',
          sentAt: '2026-03-15T18:00:00.000Z',
          createdAt: '2026-03-15T17:00:00.000Z',
          urlId: 'abcdefabcdefabcdefabcd',
          delivery: { queued: 0, sent: 5, delivered: 0, failed: 0 },
        },
      ],
    };
    server.use(http.get('*/api/admin/loops/7', () => HttpResponse.json(detail)));
    renderRoute('/admin/loops/7', { user: staff });
    expect(await screen.findByText('Delivery is not tracked in simulator mode')).toBeDefined();
    const delivery = screen.getByLabelText('Delivery');
    expect(within(delivery).getByText('Sent')).toBeDefined();
    expect(within(delivery).queryByText('Delivered')).toBeNull();
    expect(within(delivery).queryByText('Failed')).toBeNull();
    // Phones get a card per member (CSS shows them below md, the table above).
    const membersCard = screen.getByRole('heading', { name: 'Members (2)' }).parentElement?.parentElement as HTMLElement;
    const cards = within(membersCard).getAllByRole('listitem');
    expect(cards).toHaveLength(2);
    expect(within(cards[1]!).getByText(detail.members[1]!.user.firstName, { exact: false })).toBeDefined();
  });
});

describe('/admin/loops/{id} newsletters', () => {
  it('lists drafts apart from Past Newsletters, each titled with its day', async () => {
    const entry = (id: number, status: 'draft' | 'sent', day: string) => ({
      id,
      loopId: 7,
      kind: 'newsletter' as const,
      status,
      sentAt: status === 'sent' ? `${day}T18:00:00.000Z` : null,
      createdAt: `${day}T12:00:00.000Z`,
      urlId: 'abcdefabcdefabcdefabcd',
      delivery: { queued: 0, sent: 5, delivered: 0, failed: 0 },
    });
    const detail: AdminLoopDetail = { ...loopDetail(), newsletters: [entry(4, 'draft', '2026-03-28'), entry(3, 'sent', '2026-03-15')] };
    server.use(http.get('*/api/admin/loops/7', () => HttpResponse.json(detail)));
    renderRoute('/admin/loops/7', { user: staff });
    const drafts = (await screen.findByRole('heading', { name: 'Drafts (1)' })).parentElement?.parentElement as HTMLElement;
    const past = screen.getByRole('heading', { name: 'Past Newsletters (1)' }).parentElement?.parentElement as HTMLElement;
    const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { month: 'short', day: 'numeric', year: 'numeric' });
    expect(within(drafts).getByText(`Newsletter of ${day('2026-03-28T12:00:00.000Z')}`)).toBeDefined();
    expect(within(drafts).getByRole('link', { name: 'Edit Draft' })).toBeDefined();
    expect(within(past).getByText(`Newsletter of ${day('2026-03-15T18:00:00.000Z')}`)).toBeDefined();
    expect(within(past).queryByRole('link', { name: 'Edit Draft' })).toBeNull();
  });
});

describe('/admin states', () => {
  const stats = { totalLoops: 1, totalMembers: 2, totalUpdates: 0, loopGrowth: [], memberGrowth: [] };

  it('shows a spinner under "Admin Dashboard" while the figures load', async () => {
    server.use(http.get('*/api/admin/stats', neverAnswer));
    renderRoute('/admin', { user: staff });
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' })).toBeDefined();
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
    expect(screen.queryByText('Total Loops')).toBeNull();
  });

  it('shows the figures, the charts, and says when there is no newsletter or Loop yet', async () => {
    server.use(
      http.get('*/api/admin/stats', () => HttpResponse.json(stats)),
      http.get('*/api/admin/newsletters', () => HttpResponse.json([])),
      http.get('*/api/admin/loops', () => HttpResponse.json([])),
    );
    renderRoute('/admin', { user: staff });
    expect(await screen.findByText('Total Loops')).toBeDefined();
    expect(screen.getByText('Total Members')).toBeDefined();
    expect(screen.getByText('Loop Growth')).toBeDefined();
    expect(screen.getByText('Member Growth')).toBeDefined();
    expect(await screen.findByText('No newsletters yet.')).toBeDefined();
    expect(await screen.findByText('No loops yet.')).toBeDefined();
  });

  it('says "Failed to load admin dashboard" when the figures fail, and Try again loads them', async () => {
    const user = userEvent.setup();
    let fail = true;
    server.use(
      http.get('*/api/admin/stats', () =>
        fail ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }) : HttpResponse.json(stats),
      ),
      http.get('*/api/admin/newsletters', () => HttpResponse.json([])),
      http.get('*/api/admin/loops', () => HttpResponse.json([])),
    );
    renderRoute('/admin', { user: staff });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load admin dashboard' })).toBeDefined();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Total Loops')).toBeDefined();
  });
});

describe('/admin/loops/{id} states', () => {
  it('shows a spinner while the Loop loads', async () => {
    server.use(http.get('*/api/admin/loops/7', neverAnswer));
    renderRoute('/admin/loops/7', { user: staff });
    expect(await screen.findByRole('link', { name: 'Back to Admin Dashboard' })).toBeDefined();
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
  });

  it('says "Failed to load loop details" when it fails to load', async () => {
    server.use(http.get('*/api/admin/loops/7', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 })));
    renderRoute('/admin/loops/7', { user: staff });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load loop details' })).toBeDefined();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeDefined();
  });

  it('shows the Loop under its name, and "No newsletters have been generated yet" when there is none', async () => {
    const detail: AdminLoopDetail = { ...loopDetail(), newsletters: [] };
    server.use(http.get('*/api/admin/loops/7', () => HttpResponse.json(detail)));
    renderRoute('/admin/loops/7', { user: staff });
    expect(await screen.findByRole('heading', { level: 1, name: 'The Walker Family' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Generate Newsletter' })).toBeDefined();
    expect(screen.getByText('No newsletters have been generated yet')).toBeDefined();
  });
});

describe('/admin Recent Newsletters: View Content', () => {
  it('shows the page the server draws for the content, in a frame that runs no script', async () => {
    const user = userEvent.setup();
    const content = '## Ada\n\n<img src=x onerror=alert(1)> *hi* [x](javascript:alert(2))';
    const asked: unknown[] = [];
    server.use(
      http.get('*/api/admin/stats', () =>
        HttpResponse.json({ totalLoops: 1, totalMembers: 2, totalUpdates: 0, loopGrowth: [], memberGrowth: [] }),
      ),
      http.get('*/api/admin/loops', () => HttpResponse.json([])),
      http.get('*/api/admin/newsletters', () =>
        HttpResponse.json([
          {
            id: 3,
            loopId: 7,
            loopName: 'The Walker Family',
            kind: 'newsletter',
            status: 'sent',
            sentAt: '2026-03-15T18:00:00.000Z',
            createdAt: '2026-03-15T17:00:00.000Z',
            urlId: 'abcdefabcdefabcdefabcd',
            content,
          },
        ]),
      ),
      http.post('*/api/loops/7/newsletters/3/render', async ({ request }) => {
        asked.push(await request.json());
        return HttpResponse.json({ html: '<!doctype html><main class="content"><h2>Ada</h2></main>', media: {} });
      }),
    );
    renderRoute('/admin', { user: staff });
    const [view] = await screen.findAllByRole('button', { name: 'View Content' });
    await user.click(view!);
    const frame = await screen.findByTitle('Newsletter content');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('srcdoc')).toBe('<!doctype html><main class="content"><h2>Ada</h2></main>');
    expect(frame.getAttribute('sandbox')).toBe('allow-same-origin');
    expect(asked).toEqual([{ content }]);
    // The web draws no Markdown of its own: nothing of the content is in its document.
    const region = screen.getByRole('region', { name: 'Newsletter content' });
    expect(region.querySelector('h2, img, em, a')).toBeNull();
  });
});
