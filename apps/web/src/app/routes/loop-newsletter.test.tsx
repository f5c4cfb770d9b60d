import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { LoopNewsletters, Newsletter, RenderNewsletterAnswer } from '@loop/shared/newsletters';
import { newsletterDraft, owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

const PAGE = '/loops/7/newsletters/3';

function info(upcoming: Newsletter | null, paused = false, updatesSinceDraft = 0): LoopNewsletters {
  return {
    updatesSinceDraft,
    newsletters: [],
    nextNewsletterAt: null,
    nextReminderAt: null,
    paused,
    timeZone: 'Europe/London',
    newsletterReview: true,
    upcoming,
    audience: { byText: ['Alice', 'Bea'], byEmail: ['Carl'] },
  };
}

/** The draft's preview, the Loop's newsletters and the editor's live preview. */
function serve(draft: Newsletter, paused = false, updatesSinceDraft = 0) {
  server.use(
    http.get('*/api/loops/7/newsletters/3/preview', () => HttpResponse.json(draft)),
    http.get('*/api/loops/7/newsletters', () => HttpResponse.json(info(draft, paused, updatesSinceDraft))),
    http.post('*/api/loops/7/newsletters/3/render', () => {
      const answer: RenderNewsletterAnswer = { html: '<html><body><main>Hello</main></body></html>', media: {} };
      return HttpResponse.json(answer);
    }),
  );
}

async function pageHeading() {
  return screen.findByRole('heading', { level: 1, name: 'Review Newsletter' });
}

describe('/loops/{id}/newsletters/{newsletterId}: the owner’s review', () => {
  it('shows a spinner while the draft loads', async () => {
    server.use(
      http.get('*/api/loops/7/newsletters/3/preview', neverAnswer),
      http.get('*/api/loops/7/newsletters', () => HttpResponse.json(info(null))),
    );
    renderRoute(PAGE, { user: owner });
    await pageHeading();
    expect(screen.getByRole('link', { name: 'Back to Loop' }).getAttribute('href')).toBe('/loops/7');
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Approve' })).toBeNull();
  });

  it('says where the draft stands, offers Approve and Skip This Issue, and opens the editor', async () => {
    serve(newsletterDraft({ sendAt: '2099-03-29T17:00:00.000Z' }));
    renderRoute(PAGE, { user: owner });
    await pageHeading();
    expect(await screen.findByText(/^Waiting for your approval: goes out .* once you approve it\.$/)).toBeDefined();
    expect(screen.getByRole('button', { name: 'Approve' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Skip This Issue' })).toBeDefined();
    expect(await screen.findByRole('textbox', { name: 'Newsletter content' })).toBeDefined();
  });

  it('says a paused Loop sends nothing, not when the draft would go', async () => {
    serve(newsletterDraft({ sendAt: '2099-03-29T17:00:00.000Z' }), true);
    renderRoute(PAGE, { user: owner });
    expect(await screen.findByText('Paused: nothing is sent until you resume.')).toBeDefined();
    expect(screen.getByText('This loop is paused: no reminders or newsletters go out until you resume it in Settings.')).toBeDefined();
    expect(screen.queryByText(/goes out/)).toBeNull();
  });

  it('flags "1 new update since this draft" and adds it in one tap', async () => {
    const user = userEvent.setup();
    const draft = newsletterDraft({ sendAt: '2099-03-29T17:00:00.000Z' });
    serve(draft, false, 1);
    let written = 0;
    server.use(
      http.post('*/api/loops/7/newsletters/generate', () => {
        written += 1;
        return HttpResponse.json({ newsletter: draft }, { status: 201 });
      }),
    );
    renderRoute(PAGE, { user: owner });
    expect(await screen.findByText('1 new update since this draft')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Add it' }));
    expect(await screen.findByText('Draft written')).toBeDefined();
    expect(written).toBe(1);
  });

  it('asks before Send Now, saying who gets a text and who gets an email', async () => {
    serve(newsletterDraft({ sendAt: '2099-03-29T17:00:00.000Z' }));
    renderRoute(PAGE, { user: owner });
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Send Now' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Send this newsletter now?' });
    expect(within(dialog).getByText(/^2 members get a text/).textContent).toBe(
      '2 members get a text with its link (Alice, Bea); 1 member who chose email gets it by email (Carl), now. This cannot be undone.',
    );
  });

  it('after Approve the badge says "Approved" and Withdraw Approval makes it a draft that waits again', async () => {
    const user = userEvent.setup();
    let draft = newsletterDraft({ sendAt: '2099-03-29T17:00:00.000Z' });
    const calls: string[] = [];
    serve(draft);
    server.use(
      http.get('*/api/loops/7/newsletters/3/preview', () => HttpResponse.json(draft)),
      http.get('*/api/loops/7/newsletters', () => HttpResponse.json(info(draft))),
      ...(['approve', 'unapprove'] as const).map((action) =>
        http.post(`*/api/loops/7/newsletters/3/${action}`, () => {
          calls.push(action);
          draft = { ...draft, approvedAt: action === 'approve' ? '2099-03-28T10:00:00.000Z' : null };
          return HttpResponse.json({ newsletter: draft, textsQueued: 0 });
        }),
      ),
    );
    renderRoute(PAGE, { user: owner });
    expect(await screen.findByText('Draft', { selector: 'span' })).toBeDefined();
    await user.click(await screen.findByRole('button', { name: 'Approve' }));
    expect(await screen.findByText('Approved', { selector: 'span' })).toBeDefined();
    expect(screen.queryByText('Draft', { selector: 'span' })).toBeNull();
    expect(await screen.findByText(/^Approved: goes out /)).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Withdraw Approval' }));
    expect(await screen.findByRole('button', { name: 'Approve' })).toBeDefined();
    expect(await screen.findByText('Draft', { selector: 'span' })).toBeDefined();
    expect(calls).toEqual(['approve', 'unapprove']);
  });

  it('says a skipped issue goes to nobody', async () => {
    serve(newsletterDraft({ skippedAt: '2026-03-16T10:00:00.000Z' }));
    renderRoute(PAGE, { user: owner });
    expect(await screen.findByText('This issue was skipped: nobody gets it.')).toBeDefined();
  });

  it('says "Failed to load newsletter" when the draft fails to load', async () => {
    server.use(
      http.get('*/api/loops/7/newsletters/3/preview', () => HttpResponse.json({ message: 'Newsletter not found' }, { status: 404 })),
      http.get('*/api/loops/7/newsletters', () => HttpResponse.json(info(null))),
    );
    renderRoute(PAGE, { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load newsletter' })).toBeDefined();
  });

  it('says "Failed to load the loop" when the Loop’s schedule fails to load', async () => {
    server.use(
      http.get('*/api/loops/7/newsletters/3/preview', () => HttpResponse.json(newsletterDraft())),
      http.get('*/api/loops/7/newsletters', () => HttpResponse.json({ message: 'Database unavailable' }, { status: 503 })),
    );
    renderRoute(PAGE, { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load the loop' })).toBeDefined();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeDefined();
  });

  it('is the not-found screen for an address that is not a number', async () => {
    renderRoute('/loops/7/newsletters/latest', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
  });
});
