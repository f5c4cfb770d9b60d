import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';

describe('/guide', () => {
  it('walks through six numbered steps with their screenshots, and ends on Get Started for Free!', async () => {
    const { container } = renderRoute('/guide');
    expect(await screen.findByRole('heading', { level: 1, name: 'Your group’s newsletter in six steps' })).toBeDefined();
    const steps = within(container.querySelector('ol#walkthrough') as HTMLElement).getAllByRole('listitem');
    expect(steps).toHaveLength(6);
    expect(within(steps[0]!).getByText('Step', { exact: false }).parentElement?.textContent).toBe('Step 1');
    expect(within(steps[0]!).getByRole('heading', { level: 2, name: 'Create your free account' })).toBeDefined();
    expect(within(steps[1]!).getByRole('heading', { level: 2, name: 'Create a Loop' })).toBeDefined();
    for (const step of steps) expect(within(step).getByRole('img')).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Ready to start your Loop?' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Get Started for Free!' }).getAttribute('href')).toBe('/auth');
  });

  it('is open to a signed-in person too', async () => {
    renderRoute('/guide', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'Your group’s newsletter in six steps' })).toBeDefined();
  });
});
