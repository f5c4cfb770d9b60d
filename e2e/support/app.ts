import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { solveProofOfWork } from '../../apps/server/test/helpers/proof-of-work';
import { runningServers } from './server';

export interface Person {
  firstName: string;
  lastName: string;
  email: string;
  phoneNumber: string;
  password?: string;
}

/** The 6-digit code in a text. */
export function codeIn(text: string | null | undefined): string {
  const code = /\b(\d{6})\b/.exec(text ?? '')?.[1];
  if (!code) throw new Error(`no code in ${JSON.stringify(text)}`);
  return code;
}

/**
 * Signs a new account up through the API, code step included (the simulator's text, as the card
 * shows it); the page's context keeps the session cookie. A person whose email the server was
 * started with in ADMIN_EMAILS is then made staff through the admin CLI (see startServer).
 */
export async function registerAccount(page: Page, baseUrl: string, person: Person): Promise<{ id: number }> {
  // The server asks for a proof-of-work (production): solved as the web app does.
  const altcha = await solveProofOfWork(async (path) => (await page.request.get(`${baseUrl}${path}`)).json());
  const response = await page.request.post(`${baseUrl}/api/register`, {
    data: { password: 'a long enough password', messagingPreference: 'sms', ...person, altcha },
  });
  if (!response.ok()) throw new Error(`register failed: ${response.status()} ${await response.text()}`);
  const started = (await response.json()) as { phoneNumber: string; simulatedText: string | null };
  const verified = await page.request.post(`${baseUrl}/api/register/verify`, {
    data: { phoneNumber: started.phoneNumber, code: codeIn(started.simulatedText) },
  });
  if (!verified.ok()) throw new Error(`register code failed: ${verified.status()} ${await verified.text()}`);
  const server = runningServers.get(baseUrl);
  if (server?.staffEmails.includes(person.email.toLowerCase())) await server.grantStaff(person.email);
  const me = await page.request.get(`${baseUrl}/api/user`);
  return (await me.json()) as { id: number };
}

/** Waits until the locator's first match is visible (10 s by default). */
export async function waitVisible(locator: Locator, timeout = 10_000): Promise<void> {
  await expect.poll(() => locator.first().isVisible(), { timeout }).toBe(true);
}

/** Waits until nothing matches the locator any more. */
export async function waitGone(locator: Locator, timeout = 10_000): Promise<void> {
  await expect.poll(() => locator.count(), { timeout }).toBe(0);
}

/**
 * The toast area (Radix labels it "Notifications (F8)"). Found by CSS, not role: while a modal
 * dialog is open, Radix hides everything outside it from the accessibility tree.
 */
export function toasts(page: Page): Locator {
  return page.locator('[role="region"][aria-label^="Notifications"]');
}

/** Waits for a toast with exactly this title (or description). */
export async function waitToast(page: Page, text: string | RegExp): Promise<void> {
  await waitVisible(toasts(page).getByText(text, { exact: true }));
}

/** Closes open toasts, so they do not cover what a screenshot is about. */
export async function dismissToasts(page: Page): Promise<void> {
  for (const close of await toasts(page).locator('button[aria-label="Close"]').all()) {
    // A synthetic click: a real one at the button's spot could land on an open dialog's overlay.
    if (await close.isVisible()) await close.dispatchEvent('click');
  }
  await waitGone(toasts(page).locator('li[data-state="open"]'));
  // The closing animation.
  await page.waitForTimeout(200);
}
