import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { owner, simulatorConfig } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

const LINKS = {
  exampleNewsletter: 'https://example.com/newsletter',
  demoVideo: 'https://video.example.com/demo',
  guide: 'https://docs.example.com/guide',
};

describe('landing page (signed-out "/")', () => {
  it('shows the hero, How it works, the guide, the FAQ and the closing banner, with the configured links', async () => {
    renderRoute('/', { config: { ...simulatorConfig, links: LINKS } });
    expect(await screen.findByRole('heading', { level: 1, name: 'Collect updates and news from your whole group' })).toBeDefined();
    // The links come from GET /api/config once it answers (our own pages until then).
    expect((await screen.findByRole('link', { name: /^See Example Newsletter/ })).getAttribute('href')).toBe(LINKS.exampleNewsletter);
    expect(screen.getByRole('link', { name: /^Watch Demo/ }).getAttribute('href')).toBe(LINKS.demoVideo);
    expect(screen.getByRole('link', { name: /^Read the Guide/ }).getAttribute('href')).toBe(LINKS.guide);
    expect(screen.getByRole('link', { name: /^See Example Newsletter/ }).getAttribute('target')).toBe('_blank');
    const steps = screen.getAllByRole('heading', { level: 3 }).map((heading) => heading.textContent);
    expect(steps.slice(0, 3)).toEqual(['Step 1: Simple Sign Up', 'Step 2: SMS Updates', 'Step 3: Automated Newsletter']);
    expect(screen.getByRole('heading', { name: 'Getting Started Guide' })).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Ready to keep your group connected?' })).toBeDefined();
    const getStarted = screen.getAllByRole('link', { name: 'Get Started for Free!' });
    expect(getStarted.length).toBeGreaterThanOrEqual(2);
    for (const link of getStarted) expect(link.getAttribute('href')).toBe('/auth');
  });

  it('opens one FAQ answer at a time, and closes it again', async () => {
    const user = userEvent.setup();
    renderRoute('/');
    const cost = await screen.findByRole('button', { name: 'How much does Loop cost?' });
    expect(screen.getAllByRole('button', { name: /\?$/ })).toHaveLength(6);
    await user.click(cost);
    expect(screen.getByText('Nothing at all. Loop is free.')).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'How many texts can I send?' }));
    expect(screen.getByText('As many as you want. Every one can make it into the next newsletter.')).toBeDefined();
    expect(screen.queryByText('Nothing at all. Loop is free.')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'How many texts can I send?' }));
    expect(screen.queryByText('As many as you want. Every one can make it into the next newsletter.')).toBeNull();
  });

  it('is not what a signed-in person sees at "/"', async () => {
    server.use(http.get('*/api/loops', () => HttpResponse.json([])));
    renderRoute('/', { user: owner });
    expect(await screen.findByRole('heading', { level: 1, name: 'My Loops' })).toBeDefined();
    expect(screen.queryByRole('heading', { name: 'Collect updates and news from your whole group' })).toBeNull();
  });
});
