import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { CreateLoopAnswer } from '@loop/shared/loops';
import { loopDetail, owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

async function createLoop(smsStatus: CreateLoopAnswer['smsStatus']) {
  const user = userEvent.setup();
  const { members: _members, updates: _updates, role: _role, ...summary } = loopDetail();
  server.use(
    http.get('*/api/loops', () => HttpResponse.json([])),
    http.post('*/api/loops', () =>
      HttpResponse.json({ ...summary, smsStatus, nextNewsletterAt: '2026-03-29T22:00:00.000Z' } satisfies CreateLoopAnswer, {
        status: 201,
      }),
    ),
    // The new Loop opens once created.
    http.get('*/api/loops/7', () => HttpResponse.json(loopDetail())),
  );
  renderRoute('/', { user: owner });
  await user.click((await screen.findAllByRole('button', { name: /Create (Your First )?Loop/ }))[0]!);
  const dialog = await screen.findByRole('dialog', { name: 'Create Loop' });
  await user.type(await within(dialog).findByRole('textbox', { name: 'Loop Name' }), 'The Walker Family');
  await user.click(within(dialog).getByRole('checkbox', { name: 'Family' }));
  await user.click(within(dialog).getByRole('button', { name: 'Create Loop' }));
}

describe('Create Loop toast', () => {
  it('says where texts go with the Phone Simulator, not that they are disabled', async () => {
    await createLoop('simulated');
    expect(await screen.findByText('Loop created successfully!')).toBeDefined();
    expect(screen.getByText(/Texts to members show up in the Phone Simulator: nothing leaves this computer\.$/)).toBeDefined();
    expect(screen.queryByText(/currently disabled/)).toBeNull();
  });

  it('keeps the SPEC’s words when texts really are off', async () => {
    await createLoop('disabled');
    expect(await screen.findByText('Loop created successfully! SMS notifications are currently disabled.')).toBeDefined();
  });
});

describe('Create Loop and time', () => {
  it('shows the time zone it picks, and says when the first newsletter goes out, in that zone', async () => {
    await createLoop('enabled');
    const zone = loopDetail().timeZone;
    // The toast names the Loop's zone and the first newsletter's time on its clock.
    const toast = await screen.findByText(/^The first newsletter goes out /);
    expect(toast.textContent).toMatch(
      new RegExp(`^The first newsletter goes out Sun, Mar 29, .*\\(${zone.replaceAll('_', ' ').replaceAll('/', ' / ')}\\)\\.$`),
    );
  });

  it('names this device’s time zone in the dialog before creating', async () => {
    const user = userEvent.setup();
    server.use(http.get('*/api/loops', () => HttpResponse.json([])));
    renderRoute('/', { user: owner });
    await user.click((await screen.findAllByRole('button', { name: /Create (Your First )?Loop/ }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Create Loop' });
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone.replaceAll('_', ' ').replaceAll('/', ' / ');
    expect(within(dialog).getByTestId('create-loop-time-zone').textContent).toContain(`Time zone: ${zone}, this device’s.`);
  });
});

describe('after Create Loop', () => {
  it('opens the new Loop on its Members tab, and the toast links the Phone Simulator', async () => {
    await createLoop('simulated');
    const tab = await screen.findByRole('tab', { name: 'Members' });
    expect(tab.getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('heading', { name: 'The Walker Family', level: 1 })).toBeDefined();
    const toast = screen.getByRole('region', { name: /Notifications/ });
    expect(within(toast).getByRole('link', { name: 'Phone Simulator' }).getAttribute('href')).toBe('/simulator');
  });

  it('offers no Phone Simulator link when texts are real', async () => {
    await createLoop('enabled');
    await screen.findByRole('tab', { name: 'Members' });
    expect(screen.queryByRole('link', { name: 'Phone Simulator' })).toBeNull();
  });
});

describe('My Loops states', () => {
  function summary() {
    const { members: _members, updates: _updates, role: _role, ...loop } = loopDetail();
    return loop;
  }

  it('shows a spinner while the Loops load', async () => {
    server.use(http.get('*/api/loops', neverAnswer));
    renderRoute('/', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'My Loops' })).toBeDefined();
    expect(within(screen.getByRole('main')).getByText('Loading')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Create Your First Loop' })).toBeNull();
  });

  it('shows a card per Loop, linking to it, and a Create Loop button', async () => {
    server.use(http.get('*/api/loops', () => HttpResponse.json([summary()])));
    renderRoute('/', { user: owner });
    const card = await screen.findByRole('link', { name: /The Walker Family/ });
    expect(card.getAttribute('href')).toBe('/loops/7');
    expect(screen.getByText('Cousins spread over three countries')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Create Loop' })).toBeDefined();
  });

  it('marks a paused Loop "Paused" on its card, and only that one', async () => {
    server.use(http.get('*/api/loops', () => HttpResponse.json([summary(), { ...summary(), id: 8, name: 'Quiet Ones', paused: true }])));
    renderRoute('/', { user: owner });
    const paused = await screen.findByRole('link', { name: /Quiet Ones/ });
    expect(within(paused).getByText('Paused')).toBeDefined();
    expect(within(screen.getByRole('link', { name: /The Walker Family/ })).queryByText('Paused')).toBeNull();
  });

  it('shows "Create Your First Loop" with its two bullets when there is none', async () => {
    server.use(http.get('*/api/loops', () => HttpResponse.json([])));
    renderRoute('/', { user: owner });
    expect(await screen.findByRole('heading', { name: 'Create Your First Loop' })).toBeDefined();
    expect(screen.getByText('Share updates via SMS')).toBeDefined();
    expect(screen.getByText('Connect with your group')).toBeDefined();
  });

  it('says "Failed to fetch loops" when they fail to load, and Try again loads them', async () => {
    const user = userEvent.setup();
    let fail = true;
    server.use(
      http.get('*/api/loops', () =>
        fail ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }) : HttpResponse.json([summary()]),
      ),
    );
    renderRoute('/', { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to fetch loops' })).toBeDefined();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: /The Walker Family/ })).toBeDefined();
  });
});
