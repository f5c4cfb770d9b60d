import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse, type HttpResponseResolver } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SimulatorPhone } from '@loop/shared/simulator';
import { owner, simulatorConfig, staff } from '@/test/fixtures';
import { renderRoute, requests } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

const margaret: SimulatorPhone = {
  userId: 102,
  firstName: 'Margaret',
  lastName: 'Walker-Fitzgerald',
  phoneNumber: '+447911123456',
  messagingPreference: 'sms',
  optedOut: false,
  loops: [{ id: 7, name: 'The Walker Family' }],
};

/** The phone's first text, "Hello!", as the thread lists it. */
function helloText(status: string) {
  return {
    id: 1,
    direction: 'inbound',
    channel: 'sms',
    kind: 'inbound',
    body: 'Hello!',
    mediaUrls: [],
    photos: [],
    attachments: [],
    status,
    error: null,
    createdAt: '2026-05-04T10:00:00Z',
  };
}

function servePhones(answer: HttpResponseResolver) {
  server.use(http.get('*/api/simulator/phones', answer));
}

async function pageHeading() {
  return screen.findByRole('heading', { level: 1, name: 'Phone Simulator' });
}

describe('/simulator', () => {
  it('shows a spinner while the members load', async () => {
    servePhones(neverAnswer);
    renderRoute('/simulator', { user: owner });
    await pageHeading();
    expect(await screen.findByRole('status')).toBeDefined();
    expect(within(screen.getByRole('status')).getByText('Loading')).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Members' })).toBeNull();
  });

  it('lists the members of the person’s Loops and asks to pick one', async () => {
    servePhones(() => HttpResponse.json({ phones: [margaret] }));
    renderRoute('/simulator', { user: owner });
    await pageHeading();
    expect(await screen.findByRole('link', { name: /Margaret Walker-Fitzgerald/ })).toBeDefined();
    expect(screen.getByText('Pick a member')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Mail Simulator' }).getAttribute('href')).toBe('/simulator/mail');
  });

  it('says to create a Loop and add members when there is nobody to play', async () => {
    servePhones(() => HttpResponse.json({ phones: [] }));
    renderRoute('/simulator', { user: owner });
    expect(await screen.findByRole('heading', { name: 'Create a Loop and add members first' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Go to My Loops' }).getAttribute('href')).toBe('/');
  });

  it('says the members failed to load, and Try again loads them', async () => {
    const user = userEvent.setup();
    let fail = true;
    servePhones(() =>
      fail ? HttpResponse.json({ message: 'Database unavailable' }, { status: 503 }) : HttpResponse.json({ phones: [margaret] }),
    );
    renderRoute('/simulator', { user: owner });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load members' })).toBeDefined();
    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('link', { name: /Margaret Walker-Fitzgerald/ })).toBeDefined();
  });

  it('is off, and asks nothing, for a person who is not staff while real texts are on', async () => {
    servePhones(() => HttpResponse.json({ phones: [margaret] }));
    renderRoute('/simulator', { user: owner, config: { ...simulatorConfig, messagingProvider: 'twilio' } });
    expect(await screen.findByRole('heading', { name: 'The Phone Simulator is off' })).toBeDefined();
    expect(requests).not.toContain('GET /api/simulator/phones');
  });

  it('stays open to staff while real texts are on', async () => {
    servePhones(() => HttpResponse.json({ phones: [margaret] }));
    renderRoute('/simulator', { user: staff, config: { ...simulatorConfig, messagingProvider: 'twilio' } });
    expect(await screen.findByRole('link', { name: /Margaret Walker-Fitzgerald/ })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'The Phone Simulator is off' })).toBeNull();
  });

  it('offers YES to a phone invited to a Loop and not yet in, also after it texted; a tap puts YES in the text box', async () => {
    const user = userEvent.setup();
    const pending: SimulatorPhone = { ...margaret, loops: [{ id: 7, name: 'The Walker Family', pending: true }] };
    servePhones(() => HttpResponse.json({ phones: [pending] }));
    const hello = helloText('ignored');
    server.use(http.get('*/api/simulator/phones/:phone/messages', () => HttpResponse.json({ phone: pending, messages: [hello] })));
    renderRoute(`/simulator?phone=${encodeURIComponent(pending.phoneNumber)}`, { user: owner });
    const yes = await screen.findByRole('button', { name: 'YES' });
    expect(screen.getByText('Invited, not in yet. Try')).toBeDefined();
    await user.click(yes);
    expect((screen.getByRole('textbox') as HTMLTextAreaElement).value).toBe('YES');
  });

  it('offers no YES to a phone already in its Loop once it has texted', async () => {
    servePhones(() => HttpResponse.json({ phones: [margaret] }));
    const hello = helloText('processed');
    server.use(http.get('*/api/simulator/phones/:phone/messages', () => HttpResponse.json({ phone: margaret, messages: [hello] })));
    renderRoute(`/simulator?phone=${encodeURIComponent(margaret.phoneNumber)}`, { user: owner });
    expect(await screen.findByText('Hello!')).toBeDefined();
    expect(screen.queryByRole('button', { name: 'YES' })).toBeNull();
  });
});
