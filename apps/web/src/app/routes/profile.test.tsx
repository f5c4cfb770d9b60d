import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { DataExport } from '@loop/shared/account-data';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { neverAnswer, server } from '@/test/server';

const failedExport: DataExport = {
  status: 'failed',
  requestedAt: '2026-03-15T18:00:00.000Z',
  readyAt: null,
  expiresAt: null,
  bytes: null,
  downloadUrl: null,
};

describe('/profile', () => {
  it('shows the person’s details, how Loop reaches them, and their data, section by section', async () => {
    renderRoute('/profile', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Profile' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Back to Dashboard' }).getAttribute('href')).toBe('/');
    const sections = ['Your details', 'Phone number', 'Phone PIN', 'Password', 'Notifications', 'Download my data', 'Delete my account'];
    expect(screen.getAllByRole('heading', { level: 2 }).map((heading) => heading.textContent)).toEqual(sections);
    expect((screen.getByRole('textbox', { name: 'First Name' }) as HTMLInputElement).value).toBe('Ana');
    expect((screen.getByRole('textbox', { name: 'Last Name' }) as HTMLInputElement).value).toBe('Owner');
    expect((screen.getByRole('textbox', { name: 'Email' }) as HTMLInputElement).value).toBe(owner.email);
    expect(screen.getByText("Choose how you'd like to receive updates and reminders")).toBeDefined();
    expect(await screen.findByRole('button', { name: 'Download my data' })).toBeDefined();
  });

  it('says it is checking for an earlier download while that loads', async () => {
    server.use(http.get('*/api/user/export', neverAnswer));
    renderRoute('/profile', { user: owner });
    expect(await screen.findByText('Checking for an earlier download…')).toBeDefined();
  });

  it('says when the data could not be gathered', async () => {
    server.use(http.get('*/api/user/export', () => HttpResponse.json(failedExport)));
    renderRoute('/profile', { user: owner });
    expect(await screen.findByText('Your data could not be gathered. Please ask again.')).toBeDefined();
  });

  it('is the not-found screen for a signed-out visitor', async () => {
    renderRoute('/profile');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
    expect(screen.queryByRole('heading', { level: 1, name: 'Profile' })).toBeNull();
  });
});
