import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { codeIn, dismissToasts, registerAccount, waitToast, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

/** Nothing wider than the screen, and each of these buttons whole on it. */
async function expectFits(page: Page, buttons: string[]) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const name of buttons) {
    const box = await page.getByRole('button', { name, exact: true }).first().boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width + 1, name).toBe(true);
  }
}

describe('Profile: name, email, phone number and password', () => {
  it('edits them by keyboard at 375 px, and lays out at 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, { firstName: 'Pat', lastName: 'Doe', email: 'pat@example.com', phoneNumber: '+14155550171' });
    // A second browser signed in to the account: the phone change, then the password change, log it out.
    const other = await browser.newContext();
    const login = await other.request.post(`${server.url}/api/login`, {
      data: { email: 'pat@example.com', password: 'a long enough password' },
    });
    expect(login.status()).toBe(200);

    await page.goto(`${server.url}/profile`);
    const details = page.getByRole('form', { name: 'Your details' });
    await details.getByLabel('First Name').fill('Patricia');
    await details.getByLabel('Last Name').fill('Doe-Smith');
    await details.getByLabel('Email').fill('patricia@example.com');
    await page.keyboard.press('Enter');
    // A new address is the account's only once the link e-mailed to it is followed (decision 0054).
    await waitToast(page, 'Check your inbox');
    expect(await details.getByLabel('Email').inputValue()).toBe('pat@example.com');
    await dismissToasts(page);
    await expectFits(page, ['Save Changes', 'Change phone number', 'Change Password']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'profile-account-375');

    // The new phone number, with the current password, proven by the code texted to it (the
    // simulator shows the text).
    await page.getByRole('button', { name: 'Change phone number' }).click();
    const newNumber = page.getByRole('form', { name: 'New phone number' });
    await newNumber.getByRole('textbox', { name: 'New Phone Number' }).fill('415 555 0172');
    await newNumber.getByLabel('Current Password').fill('a long enough password');
    await newNumber.getByLabel('Current Password').press('Enter');
    const step = page.getByRole('form', { name: 'Code for the new phone number' });
    await waitVisible(step);
    const code = codeIn(await step.getByRole('note', { name: 'Simulated text' }).textContent());
    await expectFits(page, ['Verify and Change Number']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'profile-phone-code-375');
    await step.getByLabel(/Code/).fill(code);
    await step.getByLabel(/Code/).press('Enter');
    await waitToast(page, 'Phone number updated successfully!');
    await waitVisible(page.getByText('+1 415 555 0172'));
    await dismissToasts(page);
    // Moving the phone ended every other session (decision 0052): the second browser signs in
    // again, and the password change below logs it out once more.
    expect((await other.request.get(`${server.url}/api/user`)).status()).toBe(401);
    const again = await other.request.post(`${server.url}/api/login`, {
      data: { email: 'pat@example.com', password: 'a long enough password' },
    });
    expect(again.status()).toBe(200);

    // The password, by keyboard: Tab from the current password to the new one, Enter sends.
    const password = page.getByRole('form', { name: 'Change password' });
    await password.getByLabel('Current Password').fill('a long enough password');
    await page.keyboard.press('Tab');
    await page.keyboard.type('another long passphrase');
    await page.keyboard.press('Enter');
    await waitToast(page, 'Password changed successfully!');
    expect((await other.request.get(`${server.url}/api/user`)).status()).toBe(401);
    expect((await page.request.get(`${server.url}/api/user`)).status()).toBe(200);
    await dismissToasts(page);

    await page.setViewportSize(DESKTOP);
    // The page as it opens: at the top, nothing focused (a full-page shot of a scrolled page moves the sticky bar).
    await page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
    await expectFits(page, ['Save Changes', 'Change phone number', 'Change Password']);
    await screenshot(page, 'profile-account-1280');
    expect(errors).toEqual([]);
    await other.close();
    await context.close();
  });
});
