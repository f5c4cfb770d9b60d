import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const QUESTIONS = [
  'How do I sign up?',
  'How much does Loop cost?',
  'Can I be in more than one Loop?',
  'When should I send updates?',
  'How many texts can I send?',
  'What can I send?',
];

async function openLanding(page: Page): Promise<void> {
  await page.goto(server.url);
  await waitVisible(page.getByRole('heading', { level: 1, name: /collect updates and news/i }));
}

/** Scrolls through the page so lazy images load, then checks every image drew. */
async function expectImagesLoaded(page: Page): Promise<void> {
  const height = await page.evaluate(() => document.body.scrollHeight);
  for (let y = 0; y < height; y += 500) await page.evaluate((top) => window.scrollTo(0, top), y);
  await expect
    .poll(() => page.evaluate(() => Array.from(document.images).filter((img) => !img.complete || img.naturalWidth === 0).length))
    .toBe(0);
  const sources = await page.evaluate(() => Array.from(document.images).map((img) => img.currentSrc));
  expect(sources.length).toBeGreaterThanOrEqual(5);
  for (const src of sources) expect(src).toMatch(/\/screenshots\/[\w-]+\.webp$/);
}

describe('the landing page', () => {
  it('shows every section, on a phone and a desktop, with the real screenshots', async () => {
    for (const [viewport, name] of [
      [PHONE, 'landing-375'],
      [DESKTOP, 'landing-1280'],
    ] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await openLanding(page);
      for (const heading of [
        'How it works',
        'Getting Started Guide',
        'Frequently asked questions',
        'Ready to keep your group connected?',
      ]) {
        expect(await page.getByRole('heading', { level: 2, name: heading }).isVisible()).toBe(true);
      }
      for (const card of ['Simple Sign Up', 'SMS Updates', 'Automated Newsletter']) {
        expect(await page.getByRole('heading', { level: 3, name: card }).isVisible()).toBe(true);
      }
      await expectImagesLoaded(page);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForTimeout(500);
      await screenshot(page, name);
      await context.close();
      expect(errors).toEqual([]);
    }
  });

  it('opens the example newsletter, the demo and the guide in new tabs, on pages of our own by default', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await openLanding(page);
    const links = {
      'See Example Newsletter': '/guide#newsletter',
      'Watch Demo': '/guide#walkthrough',
      'Read the Guide': '/guide',
    };
    for (const [name, href] of Object.entries(links)) {
      const link = page.getByRole('link', { name: new RegExp(`^${name}`) });
      expect(await link.getAttribute('href')).toBe(href);
      expect(await link.getAttribute('target')).toBe('_blank');
      expect(await link.getAttribute('rel')).toContain('noopener');
    }

    const [guide] = await Promise.all([context.waitForEvent('page'), page.getByRole('link', { name: /^See Example Newsletter/ }).click()]);
    await waitVisible(guide.getByRole('heading', { name: 'Enjoy the newsletter' }));
    expect(new URL(guide.url()).pathname).toBe('/guide');
    expect(await guide.getByRole('img').count()).toBe(6);
    expect(new URL(page.url()).pathname).toBe('/');
    await context.close();
  });

  it('opens the FAQ one answer at a time, and closes it again', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await openLanding(page);
    const question = (q: string) => page.getByRole('button', { name: q });
    const expanded = async () => {
      const states = await Promise.all(QUESTIONS.map(async (q) => (await question(q).getAttribute('aria-expanded')) === 'true'));
      return QUESTIONS.filter((_, i) => states[i]);
    };
    for (const q of QUESTIONS) expect(await question(q).isVisible()).toBe(true);
    expect(await expanded()).toEqual([]);

    await question('How much does Loop cost?').click();
    expect(await expanded()).toEqual(['How much does Loop cost?']);
    await waitVisible(page.getByText('Nothing at all. Loop is free.'));

    await question('What can I send?').click();
    expect(await expanded()).toEqual(['What can I send?']);
    await waitVisible(
      page.getByText('Texts, photos, voice memos (up to 5 minutes) and short videos (up to 2 minutes). They play right in the newsletter.'),
    );
    expect(await page.getByText('Nothing at all. Loop is free.').isVisible()).toBe(false);

    await question('What can I send?').click();
    expect(await expanded()).toEqual([]);
    await context.close();
  });

  it('takes both Get Started for Free! buttons to the Sign Up card on /auth', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    for (const which of [0, 1]) {
      await openLanding(page);
      const buttons = page.getByRole('link', { name: 'Get Started for Free!' });
      expect(await buttons.count()).toBe(2);
      await buttons.nth(which).click();
      await waitVisible(page.getByRole('heading', { name: 'Create your account' }));
      expect(new URL(page.url()).pathname).toBe('/auth');
      await waitVisible(page.getByLabel('First Name'));
    }
    await context.close();
  });
});
