import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, registerAccount, waitToast } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

/** Nothing wider than the screen, and the card's button whole on it. */
async function expectFits(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  const box = await page.getByRole('button', { name: 'Save PIN', exact: true }).boundingBox();
  expect(box && box.x >= 0 && box.x + box.width <= width + 1).toBe(true);
}

/** The page as it opens: at the top, nothing focused (a full-page shot of a scrolled page moves the sticky bar). */
async function atTop(page: Page) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

describe('Profile: the phone PIN (decision 0067)', () => {
  it('sets the PIN with the current password by keyboard at 375 px, and lays out at 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, { firstName: 'Pat', lastName: 'Doe', email: 'pin@example.com', phoneNumber: '+14155550173' });
    await page.goto(`${server.url}/profile`);
    const card = page.getByRole('form', { name: 'Phone PIN' });
    await card.getByLabel('New PIN').fill('48');
    await card.getByLabel('Current Password').fill('a long enough password');
    await card.getByLabel('Current Password').press('Enter');
    await card.getByText('A phone PIN is four digits, such as 4821').waitFor();
    await card.getByLabel('New PIN').fill('4821');
    await card.getByLabel('Current Password').press('Enter');
    await waitToast(page, 'Phone PIN saved!');
    expect(await card.getByLabel('New PIN').inputValue()).toBe('');
    await dismissToasts(page);
    await expectFits(page);
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'profile-phone-pin-375');

    await page.setViewportSize(DESKTOP);
    await atTop(page);
    await expectFits(page);
    await screenshot(page, 'profile-phone-pin-1280');
    expect(errors).toEqual([]);
    await context.close();
  });
});
