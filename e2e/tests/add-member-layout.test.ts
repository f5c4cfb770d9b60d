import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccount, toasts, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, launchBrowser } from '../support/browser';
import { addMember, createLoop } from '../support/loop-data';
import { startServer, type RunningServer } from '../support/server';

/** Issue 39: Add Member was taller than an 800 px window and a toast covered its buttons. */
let server: RunningServer;
let browser: Browser;

const OWNER = { firstName: 'Ada', lastName: 'Tall' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/**
 * The window as the person sees it, under e2e/artifacts (screenshot() takes the full page, which
 * lets a fixed dialog grow to the page's height).
 */
async function windowShot(page: Page, name: string): Promise<void> {
  const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`) });
}

type Box = { x: number; y: number; width: number; height: number };
const box = async (locator: Locator): Promise<Box> => (await locator.boundingBox())!;
const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inWindow = (page: Page, b: Box) =>
  b.y >= 0 && b.x >= 0 && b.y + b.height <= page.viewportSize()!.height && b.x + b.width <= page.viewportSize()!.width;

describe('Add Member fits the window', () => {
  for (const [viewport, name, ownerPhone, benPhone] of [
    [{ width: 1280, height: 800 }, '1280x800', '+14155550141', '4155550142'],
    [{ width: 375, height: 667 }, '375x667', '+14155550143', '4155550144'],
  ] as const) {
    const BEN = { firstName: 'Ben', lastName: 'Tall', phoneNumber: `+1${benPhone}` };
    it(`at ${name}: the dialog and its buttons are in the window, and a toast does not cover them`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await registerAccount(page, server.url, {
        ...OWNER,
        email: `ada.${name}@example.com`,
        phoneNumber: ownerPhone,
      });
      const loop = await createLoop(context.request, server.url, { name: `The Tall Family ${name}`, vibe: ['family'] });
      await addMember(context.request, server.url, loop.id, BEN);
      await page.goto(`${server.url}/loops/${loop.id}`);
      await page.getByRole('tab', { name: /Members/ }).click();
      await page.getByRole('button', { name: 'Add Member' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add Member' });
      await waitVisible(dialog);
      await page.waitForTimeout(300); // the opening animation
      // Every field shown, as the owner fills the form: the e-mail brings the newsletter choice.
      await dialog.getByRole('textbox', { name: 'First Name' }).fill(BEN.firstName);
      await dialog.getByRole('textbox', { name: 'Last Name' }).fill(BEN.lastName);
      await dialog.getByRole('textbox', { name: 'Phone Number' }).fill(benPhone);
      await dialog.getByRole('textbox', { name: 'Email (Optional)' }).fill('ben.tall@example.com');
      await waitVisible(dialog.getByRole('radiogroup', { name: 'Get the newsletter' }));

      const submit = dialog.getByRole('button', { name: 'Add Member' });
      const cancel = dialog.getByRole('button', { name: 'Cancel' });
      expect(inWindow(page, await box(dialog))).toBe(true);
      expect(inWindow(page, await box(submit))).toBe(true);
      expect(inWindow(page, await box(cancel))).toBe(true);
      // The buttons' footer sits on the panel's bottom edge: nothing of the form shows below it.
      const panel = await box(dialog);
      const footer = await box(submit.locator('..'));
      expect(Math.abs(footer.y + footer.height - (panel.y + panel.height))).toBeLessThanOrEqual(2);
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
      await windowShot(page, `add-member-${name}`);

      // Ben is already in the Loop: the server refuses and a toast says so, while the dialog stays open.
      await submit.click();
      await waitToast(page, 'This person is already a member of this Loop.');
      await page.waitForTimeout(400); // the toast's sliding in
      const toast = toasts(page).locator('li[data-state="open"]').first();
      const toastBox = await box(toast);
      expect(overlaps(toastBox, await box(submit))).toBe(false);
      expect(overlaps(toastBox, await box(cancel))).toBe(false);
      await windowShot(page, `add-member-${name}-toast`);
      // The refusal's own 409 is the browser's log line, not an error of the page.
      expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
      await context.close();
    });
  }
});
