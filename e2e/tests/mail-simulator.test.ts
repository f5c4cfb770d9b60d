import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { dismissToasts, registerAccount, toasts, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;
// No SMTP_URL: the embedded default, where e-mail stops in the Mail Simulator.
withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const PERSON = { firstName: 'Rosa', lastName: 'Park', email: 'rosa@example.com', phoneNumber: '+14155550181' };

/** Nothing wider than the screen. */
async function expectFits(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

async function atTop(page: Page) {
  await page.evaluate(() => {
    (document.activeElement as HTMLElement | null)?.blur();
    window.scrollTo(0, 0);
  });
}

describe('the e-mail edition without accounts: Profile’s choice and the Mail Simulator (decision 0047)', () => {
  it('chooses the newsletter by email on Profile and reads the confirmation in the Mail Simulator, by keyboard, at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, PERSON);

    // Profile: "Get the newsletter: by text / by email / both", chosen with the keyboard.
    await page.goto(`${server.url}/profile`);
    const choice = page.getByRole('radiogroup', { name: 'Get the newsletter' });
    await waitVisible(choice);
    // The page settled (its first answers in), so the key lands on the radio that stays.
    await page.waitForLoadState('networkidle');
    await choice.getByRole('radio', { name: 'By email' }).press('Space');
    await expect
      .poll(() => toasts(page).textContent(), { timeout: 10_000 })
      .toContain('We sent a link to rosa@example.com: open it to confirm');
    expect(await choice.getByRole('radio', { name: 'By email' }).isChecked()).toBe(true);
    await waitVisible(page.getByText('Check your inbox to confirm'));
    await dismissToasts(page);
    await expectFits(page);
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'mail-profile-choice-375');

    // The account menu leads to the Mail Simulator.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Mail Simulator' }).click();
    await page.waitForURL(/\/simulator\/mail$/);
    const list = page.getByRole('list', { name: 'E-mails, newest first' });
    await waitVisible(list);
    const first = list.getByRole('link').first();
    await expect.poll(() => first.textContent(), { timeout: 15_000 }).toContain('To rosa@example.com');
    await expectFits(page);
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'mail-simulator-list-375');

    // Opened by keyboard: on a phone the e-mail takes the page, the list a link away.
    await first.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/simulator\/mail\?email=\d+$/);
    const email = page.getByRole('article');
    await waitVisible(email);
    // The confirmation has an HTML part naming the Loop (shown in a sandbox="" frame:
    // apps/web/src/app/routes/mail-simulator.test.tsx) and a plain-text part with its link.
    await waitVisible(email.getByRole('tab', { name: 'Rendered' }));
    await email.getByRole('tab', { name: 'Plain text' }).click();
    await waitVisible(email.locator('pre'));
    expect(await email.locator('pre').textContent()).toMatch(/\/email\/confirm\//);
    await expectFits(page);
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'mail-simulator-email-375');

    // Tabs by keyboard: on to the headers.
    await email.getByRole('tab', { selected: true }).focus();
    await page.keyboard.press('ArrowRight');
    await waitVisible(email.getByText('Message-ID', { exact: true }));
    expect(await email.getByText('List-Unsubscribe-Post', { exact: true }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'mail-simulator-headers-375');

    await page.getByRole('link', { name: 'All e-mails' }).click();
    await waitVisible(list);

    // 1280 px: the list beside the chosen e-mail.
    await page.setViewportSize(DESKTOP);
    await list.getByRole('link').first().click();
    await waitVisible(page.getByRole('article'));
    await expectFits(page);
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'mail-simulator-1280');

    await page.goto(`${server.url}/profile`);
    await waitVisible(page.getByText('Check your inbox to confirm'));
    expect(await seriousViolations(page)).toEqual([]);
    await atTop(page);
    await screenshot(page, 'mail-profile-choice-1280');
    expect(errors).toEqual([]);
    await context.close();
  });
});
