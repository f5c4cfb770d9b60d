import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../artifacts');

/**
 * Debian's Chromium, headless, with the flags this closed network needs. Never a downloaded browser.
 * `extraArgs`: more flags for one test file's browser (a fake microphone, say).
 */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
}

/**
 * For a test's own GET through `page.request`: the server closes an idle keep-alive socket after
 * 5 s (app.ts keepAliveTimeout), and a request sent on it at that moment fails with ECONNRESET.
 * A browser retries an idempotent request then; Playwright's request client only when told to.
 * Only for GETs: a POST is never sent twice.
 */
export const RETRY_RESET = { maxRetries: 2 };

export const PHONE = { width: 375, height: 800 };
export const DESKTOP = { width: 1280, height: 800 };

/** Saves a screenshot under e2e/artifacts, to look at after the run. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true });
}

/** Fails the test on any error a page logs or throws. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    // A 401 from GET /api/user is how a signed-out visitor is recognised, not an error.
    if (message.type() === 'error' && !/status of 401/.test(message.text())) errors.push(message.text());
  });
  return errors;
}
