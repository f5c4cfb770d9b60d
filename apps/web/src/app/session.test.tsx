import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute, requests } from '@/test/render-route';

describe('the session on page load', () => {
  it('asks GET /api/user once when signed out (it asked twice, logging two 401s)', async () => {
    renderRoute('/');
    expect(await screen.findAllByRole('link', { name: /get started for free/i })).not.toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.filter((r) => r === 'GET /api/user')).toHaveLength(1);
  });

  it('never asks GET /api/user without the session’s hint cookie: a signed-out page logs no 401', async () => {
    for (const path of ['/', '/auth', '/join/abc123', '/no-such-page']) {
      const view = renderRoute(path, { hint: false });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(requests.filter((r) => r === 'GET /api/user')).toEqual([]);
      view.unmount();
    }
    renderRoute('/', { hint: false });
    expect(await screen.findAllByRole('link', { name: /get started for free/i })).not.toHaveLength(0);
  });

  it('asks GET /api/user once when signed in', async () => {
    renderRoute('/profile', { user: owner });
    expect(await screen.findByDisplayValue('ana.owner@example.com')).toBeDefined();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests.filter((r) => r === 'GET /api/user')).toHaveLength(1);
  });
});
