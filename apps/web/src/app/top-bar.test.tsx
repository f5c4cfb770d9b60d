import { readFileSync } from 'node:fs';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { owner } from '@/test/fixtures';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';

/** The header is as wide on every screen, and the scrollbar's room is kept: moving between pages, nothing jumps. */
describe('the top bar', () => {
  const barWidth = () => (screen.getByRole('banner').firstElementChild as HTMLElement).className.match(/max-w-\w+/g);

  it('has one width on the landing page, the sign-in page and My Loops', async () => {
    const widths = [];
    const landing = renderRoute('/');
    await screen.findByRole('banner');
    widths.push(barWidth());
    landing.unmount();
    const auth = renderRoute('/auth');
    await screen.findByRole('heading', { level: 1, name: 'Welcome back' });
    widths.push(barWidth());
    auth.unmount();
    server.use(http.get('*/api/loops', () => HttpResponse.json([])));
    renderRoute('/', { user: owner });
    await screen.findByRole('heading', { level: 1, name: 'My Loops' });
    widths.push(barWidth());
    expect(widths).toEqual([['max-w-6xl'], ['max-w-6xl'], ['max-w-6xl']]);
  });

  it('keeps the scrollbar’s room on every page', () => {
    const css = readFileSync(`${process.cwd().replace(/\/apps\/web$/, '')}/apps/web/src/index.css`, 'utf8');
    expect(css).toMatch(/html \{[^}]*scrollbar-gutter: stable;/);
  });
});
