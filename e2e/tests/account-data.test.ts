import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerAccount, waitToast, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

/** Nothing on the page is wider than the screen. */
async function fitsWidth(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('Profile: download my data, delete my account (decision 0045)', () => {
  it('gathers the zip and offers its link, then deletes the account after the typed DELETE, by keyboard, at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Dana',
      lastName: 'Leaving',
      email: 'dana@example.com',
      phoneNumber: '+14155550190',
    });
    const created = await page.request.post(`${server.url}/api/loops`, {
      data: { name: 'Dana Book Club', vibe: ['family'], timeZone: 'UTC' },
    });
    expect(created.status()).toBe(201);

    await page.goto(`${server.url}/profile`);
    const gather = page.getByRole('button', { name: 'Download my data' });
    await waitVisible(gather);
    await gather.focus();
    await page.keyboard.press('Enter');
    const link = page.getByRole('link', { name: 'Download zip' });
    await waitVisible(link, 30_000);
    await waitVisible(page.getByText(/Your data is ready \(\d+ KB\)\. The link works until /));
    const href = await link.getAttribute('href');
    expect(href).toMatch(/^\/api\/user\/export\/\d+\/[A-Za-z0-9_-]{43}$/);
    const zip = await page.request.get(`${server.url}${href}`, RETRY_RESET);
    expect(zip.status()).toBe(200);
    expect(zip.headers()['content-type']).toBe('application/zip');
    expect((await zip.body()).subarray(0, 2).toString()).toBe('PK');
    await fitsWidth(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-data-375');
    await page.setViewportSize(DESKTOP);
    await fitsWidth(page);
    await screenshot(page, 'account-data-1280');

    // The dialog lists the Loop Dana runs; the button waits for the password and the typed word.
    await page.setViewportSize(PHONE);
    const open = page.getByRole('button', { name: 'Delete my account' });
    await open.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    await waitVisible(dialog.getByText(/You run this Loop/));
    const choice = dialog.getByLabel('Dana Book Club (1 member)');
    expect(await choice.inputValue()).toBe('delete');
    const confirm = dialog.getByRole('button', { name: 'Delete my account' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Your password').fill('a long enough password');
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    expect(await confirm.isDisabled()).toBe(false);
    await fitsWidth(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account-delete-375');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'account-delete-1280');

    await dialog.getByLabel('Type DELETE to confirm').press('Enter');
    await waitToast(page, 'Your account is deleted');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    expect((await page.request.get(`${server.url}/api/user`, RETRY_RESET)).status()).toBe(401);
    expect(errors).toEqual([]);
    await context.close();
  });
});
