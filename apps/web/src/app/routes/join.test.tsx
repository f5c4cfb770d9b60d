import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

function answerInvite() {
  server.use(
    http.get('*/api/invites/abc123', () =>
      HttpResponse.json({ loopName: 'The Walker Family', expiresAt: '2030-01-01T00:00:00.000Z', invitedBy: 'Ana' }),
    ),
  );
}

async function openJoinForm() {
  answerInvite();
  renderRoute('/join/abc123');
  return screen.findByRole('textbox', { name: 'Phone Number' });
}

describe('/join/{code} phone number', () => {
  it('formats a UK number typed without the 0', async () => {
    const user = userEvent.setup();
    const phone = await openJoinForm();
    await user.click(screen.getByRole('button', { name: /Country: United States/ }));
    await user.type(await screen.findByRole('combobox', { name: 'Search countries' }), 'uk{Enter}');
    await screen.findByRole('button', { name: /Country: United Kingdom \(\+44\)/ });
    await user.type(phone, '7911123456');
    expect(phone).toHaveProperty('value', '7911 123456');
  });

  it('switches country and formats a pasted +33 number', async () => {
    const user = userEvent.setup();
    const phone = await openJoinForm();
    await user.click(phone);
    await user.paste('+33 612345678');
    expect(phone).toHaveProperty('value', '06 12 34 56 78');
    screen.getByRole('button', { name: /Country: France \(\+33\)/ });
  });

  it('Enter in the country search picks the best match, India for "india"', async () => {
    const user = userEvent.setup();
    await openJoinForm();
    await user.click(screen.getByRole('button', { name: /Country: United States/ }));
    const search = await screen.findByRole('combobox', { name: 'Search countries' });
    await user.type(search, 'india');
    await waitFor(() => expect(screen.getAllByRole('option')[0]?.textContent).toContain('India'));
    await user.keyboard('{Enter}');
    await screen.findByRole('button', { name: /Country: India \(\+91\)/ });
  });

  it('clears "Phone number is required" as soon as a number is typed', async () => {
    const user = userEvent.setup();
    const phone = await openJoinForm();
    // Leaving the empty field shows the message (validation runs on blur, docs/product.md#input-rules).
    await user.click(phone);
    await user.click(screen.getByRole('textbox', { name: 'First Name' }));
    expect(await screen.findByText('Phone number is required')).toBeDefined();
    await user.click(phone);
    await user.type(phone, '4155550100');
    expect(screen.queryByText('Phone number is required')).toBeNull();
    await act(async () => {
      fireEvent.blur(phone);
    });
    expect(screen.queryByText(/Phone number/)).toBeNull();
  });
});

describe('/join/{code} after joining', () => {
  it('says what happens next instead of showing the marketing page', async () => {
    const user = userEvent.setup();
    server.use(http.post('*/api/invites/abc123/join', () => HttpResponse.json({ ok: true, loopId: 7, loopName: 'The Walker Family' })));
    const phone = await openJoinForm();
    await user.type(screen.getByRole('textbox', { name: 'First Name' }), 'Cara');
    await user.type(screen.getByRole('textbox', { name: 'Last Name' }), 'Jones');
    await user.type(phone, '4155550160');
    await user.click(screen.getByRole('button', { name: 'Join Loop' }));
    expect(await screen.findByRole('heading', { name: 'Check your phone' })).toBeDefined();
    expect(screen.getByText(/is on its way to/).textContent).toContain('+1 415 555 0160');
    expect(screen.getByText(/Reply YES/)).toBeDefined();
    expect(screen.getByText(/text your news to that number/)).toBeDefined();
    expect(screen.queryByRole('link', { name: /Get Started/ })).toBeNull();
    // Nothing says "joined" while the YES is still to come.
    expect(screen.queryByText("You've successfully joined the loop!")).toBeNull();
    expect(screen.queryByText('Success!')).toBeNull();
  });

  it('for the newsletter by email, says it comes to that address once confirmed, not a link by text', async () => {
    const user = userEvent.setup();
    server.use(http.post('*/api/invites/abc123/join', () => HttpResponse.json({ ok: true, loopId: 7, loopName: 'The Walker Family' })));
    const phone = await openJoinForm();
    await user.type(screen.getByRole('textbox', { name: 'First Name' }), 'Cara');
    await user.type(screen.getByRole('textbox', { name: 'Last Name' }), 'Jones');
    await user.type(screen.getByRole('textbox', { name: /Email/ }), 'cara@example.com');
    await user.type(phone, '4155550160');
    await user.click(screen.getByRole('radio', { name: /By email/ }));
    await user.click(screen.getByRole('button', { name: 'Join Loop' }));
    expect(await screen.findByRole('heading', { name: 'Check your phone' })).toBeDefined();
    expect(screen.getByText(/comes by email to/).textContent).toContain('cara@example.com');
    expect(screen.queryByText(/with a link to read it/)).toBeNull();
  });
});

describe('/join/{code} states', () => {
  it('shows a spinner while the invite loads', async () => {
    server.use(http.get('*/api/invites/abc123', neverAnswer));
    renderRoute('/join/abc123');
    expect(await within(await screen.findByRole('main')).findByText('Loading')).toBeDefined();
    expect(screen.queryByRole('textbox', { name: 'Phone Number' })).toBeNull();
  });

  it('names the Loop and asks for the person’s details', async () => {
    answerInvite();
    renderRoute('/join/abc123');
    expect(await screen.findByRole('heading', { level: 1, name: 'The Walker Family' })).toBeDefined();
    expect(screen.getByText('Enter your details to join the loop')).toBeDefined();
    expect(screen.getByText('Ana invited you to join')).toBeDefined();
    expect(screen.getByRole('textbox', { name: 'First Name' })).toBeDefined();
  });

  it('says the link does not work, with the server’s reason, for an unknown or expired invite', async () => {
    server.use(http.get('*/api/invites/abc123', () => HttpResponse.json({ message: 'This invite link has expired' }, { status: 410 })));
    renderRoute('/join/abc123');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'This invite link doesn’t work' })).toBeDefined();
    expect(within(alert).getByText('This invite link has expired')).toBeDefined();
    expect(within(alert).getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/');
  });
});
