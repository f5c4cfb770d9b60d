import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('signing up, out and in', () => {
  it('works through the forms, and a reload keeps the session', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await page.goto(`${server.url}/auth`);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await page.getByLabel('First Name').fill('Rosa');
    await page.getByLabel('Last Name').fill('Parks');
    await page.getByLabel('Email').fill('rosa@example.com');
    // Validation runs on blur.
    await page.getByLabel('Password').fill('short');
    await page.getByLabel('Password').blur();
    await expect.poll(() => page.getByText('Password must be at least 8 characters').isVisible()).toBe(true);
    await page.getByLabel('Password').fill('a long enough password');

    // The country picker: search for a country and pick it.
    await page.getByRole('button', { name: /^Country: United States/ }).click();
    await page.getByRole('combobox', { name: 'Search countries' }).fill('united king');
    await page.getByRole('option', { name: /United Kingdom/ }).click();
    await expect.poll(() => page.getByRole('button', { name: /^Country: United Kingdom \(\+44\)/ }).isVisible()).toBe(true);
    await page.getByLabel('Phone Number').fill('20 7946 0958');
    await page.getByText('WhatsApp', { exact: true }).click();
    await screenshot(page, 'auth-sign-up-375');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();

    await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible(), { timeout: 15_000 }).toBe(true);
    expect(new URL(page.url()).pathname).toBe('/');
    const me = await page.evaluate(async () => (await fetch('/api/user')).json());
    expect(me).toMatchObject({ email: 'rosa@example.com', phoneNumber: '+442079460958', messagingPreference: 'whatsapp' });

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect.poll(() => page.getByRole('link', { name: 'Sign In' }).isVisible()).toBe(true);

    await page.getByRole('link', { name: 'Sign In' }).click();
    await page.getByLabel('Email').fill('rosa@example.com');
    await page.getByLabel('Password').fill('wrong password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByText('Invalid email or password', { exact: true }).first().isVisible()).toBe(true);

    await page.getByLabel('Password').fill('a long enough password');
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible()).toBe(true);

    await page.reload();
    await expect.poll(() => page.getByRole('heading', { name: 'My Loops' }).isVisible()).toBe(true);
    await screenshot(page, 'dashboard-375');
    await context.close();
    expect(errors).toEqual([]);
  });

  it('shows the not-found screen for unknown pages, on a phone and a desktop', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${server.url}/no/such/page`);
      await expect.poll(() => page.getByText(/not found/i).first().isVisible()).toBe(true);
      await screenshot(page, `not-found-${viewport.width}`);
      await context.close();
    }
  });
});
