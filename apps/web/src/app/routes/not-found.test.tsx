import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';

describe('not-found screen', () => {
  it('offers Sign In and home to a signed-out visitor', async () => {
    renderRoute('/no/such/page');
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
    expect(screen.getByText('We couldn’t find that page. If you have an account, sign in to see your loops.')).toBeDefined();
    // The top bar has its own Sign In; the page's is in the main region.
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Sign In' }).getAttribute('href')).toBe('/auth');
    expect(within(main).getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
  });

  it('offers My Loops to a signed-in person', async () => {
    renderRoute('/no/such/page', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
    expect(screen.getByText('We couldn’t find that page. It may have moved, or the link may be wrong.')).toBeDefined();
    expect(screen.getByRole('link', { name: 'Go to My Loops' }).getAttribute('href')).toBe('/');
    expect(screen.queryByRole('link', { name: 'Go home' })).toBeNull();
  });

  it('is what a Loop address that is not a number shows', async () => {
    renderRoute('/loops/abc', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeDefined();
  });
});
