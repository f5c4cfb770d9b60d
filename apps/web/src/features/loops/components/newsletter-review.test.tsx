import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import type { Newsletter } from '@loop/shared/newsletters';
import { loopDetail, owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const SEND_AT = new Date(Date.now() + 86_400_000).toISOString();
const draft: Newsletter = {
  id: 9,
  loopId: 7,
  kind: 'newsletter',
  status: 'draft',
  urlId: 'dddddddddddddddddddddd',
  title: 'The Walker Family, March 15 to 29',
  content: '## Hello',
  writer: 'template',
  fellBack: false,
  periodStart: null,
  periodEnd: '2026-03-28T18:00:00.000Z',
  createdAt: '2026-03-28T18:00:00.000Z',
  sentAt: null,
  sendAt: SEND_AT,
  approvedAt: null,
  skippedAt: null,
};

/** The Loop, its coming draft (review on), and what the page asked the server to do with it. */
function serve(loop: LoopDetail) {
  let upcoming: Newsletter | null = draft;
  const posts: string[] = [];
  server.use(
    http.get('*/api/loops/7', () => HttpResponse.json(loop)),
    http.get('*/api/loops/7/newsletters', () =>
      HttpResponse.json({
        newsletters: [],
        nextNewsletterAt: SEND_AT,
        nextReminderAt: null,
        paused: false,
        timeZone: 'UTC',
        newsletterReview: true,
        upcoming: loop.role === 'member' ? null : upcoming,
      }),
    ),
    http.post('*/api/loops/7/newsletters/9/:action', ({ params }) => {
      posts.push(String(params.action));
      if (params.action === 'skip') upcoming = null;
      if (params.action === 'approve' && upcoming) upcoming = { ...upcoming, approvedAt: new Date().toISOString() };
      return HttpResponse.json({ newsletter: upcoming ?? { ...draft, skippedAt: new Date().toISOString() }, textsQueued: 0 });
    }),
  );
  return posts;
}

describe('the Newsletter tab (decision 0040)', () => {
  it('shows the owner the coming draft waiting for approval; Approve, and Skip after asking', async () => {
    const user = userEvent.setup();
    const posts = serve(loopDetail());
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Newsletter/ }));
    expect(await screen.findByText(/^Waiting for your approval: goes out/)).toBeDefined();
    expect(screen.getByRole('link', { name: /Edit/ }).getAttribute('href')).toBe('/loops/7/newsletters/9');
    // The paper edition, previewed before approving (decision 0069).
    expect(screen.getByRole('link', { name: /Preview PDF/ }).getAttribute('href')).toMatch(/^\/newsletters\/[\w-]+\.pdf$/);

    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(/^Approved: goes out/)).toBeDefined();

    await user.click(screen.getByRole('button', { name: /Skip This Issue/ }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Skip this issue?' });
    expect(posts).toEqual(['approve']);
    await user.click(within(dialog).getByRole('button', { name: 'Skip This Issue' }));
    expect(await screen.findByText(/^No draft yet\./)).toBeDefined();
    await waitFor(() => expect(posts).toEqual(['approve', 'skip']));
  });

  it('shows a member the newsletters but not the draft or its review', async () => {
    const user = userEvent.setup();
    serve(loopDetail({ role: 'member' }));
    renderRoute('/loops/7', { user: owner });
    await user.click(await screen.findByRole('tab', { name: /Newsletter/ }));
    expect(await screen.findByRole('tabpanel')).toBeDefined();
    expect(screen.queryByText(/Waiting for your approval/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Skip This Issue/ })).toBeNull();
    expect(screen.queryByRole('link', { name: /Edit/ })).toBeNull();
  });
});

describe("the owner's review page", () => {
  it("sends from the editor and goes back to the owner's own Loop, not staff's page", async () => {
    const user = userEvent.setup();
    const posts = serve(loopDetail());
    server.use(
      http.get('*/api/loops/7/newsletters/9/preview', () => HttpResponse.json(draft)),
      http.post('*/api/loops/7/newsletters/9/render', () => HttpResponse.json({ html: '<html><body>Hello</body></html>', media: {} })),
    );
    const { router } = renderRoute('/loops/7/newsletters/9', { user: owner });
    await screen.findByRole('textbox', { name: 'Newsletter content' });
    await user.click(screen.getByRole('button', { name: 'Send to Members' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send this newsletter?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send to Members' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/loops/7'));
    expect(posts).toEqual(['send']);
  });
});
