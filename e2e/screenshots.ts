// `npm run screenshots`: the landing page's and the guide's pictures, made from the real app.
// Fills a new embedded database with `npm run demo`, starts the real server on it, drives the
// real screens with Playwright (system Chromium) at phone size, and writes each screen as WebP
// plus a JPEG fallback, each under 150 KB, into apps/web/public/screenshots/.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/browser';
import { startDemoServer } from './support/demo';
// @ts-expect-error: a plain .mjs script without types.
import { buildWebIfStale } from '../scripts/web-build.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'apps/web/public/screenshots');
const MAX_BYTES = 150 * 1024;
/**
 * The address the pictures show (the invite link, the address bar of nothing): a public-looking
 * one, not 127.0.0.1 and a random port. Chromium asks for it and Playwright answers each request
 * from the real server on 127.0.0.1 (context.route), so nothing leaves the machine.
 */
const PUBLIC_ORIGIN = 'https://loop.example';

/** Serves PUBLIC_ORIGIN from the local server for every page of the context. */
async function servePublicOrigin(context: BrowserContext, localUrl: string): Promise<void> {
  await context.route(`${PUBLIC_ORIGIN}/**`, async (route) => {
    const response = await route.fetch({ url: route.request().url().replace(PUBLIC_ORIGIN, localUrl) });
    await route.fulfill({ response });
  });
}

/** A JSON call from inside the page, so the session cookie is the public origin's. */
async function callApi<T>(page: Page, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, text: await response.text() };
    },
    { method, path, body },
  );
  if (answer.status >= 400) throw new Error(`${method} ${path} failed: ${answer.status} ${answer.text}`);
  return JSON.parse(answer.text) as T;
}
const VIEWPORT = { width: 375, height: 667 };

/** PNG to WebP and JPEG with Chromium's own encoders, lowering the quality until each fits. */
async function encode(encoder: Page, png: Buffer): Promise<{ webp: Buffer; jpg: Buffer }> {
  // tsx names functions with a __name helper that the page does not have.
  await encoder.evaluate('window.__name = (f) => f');
  const result = await encoder.evaluate(
    async ({ data, max }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${data}`;
      await image.decode();
      const canvas = document.createElement('canvas');
      canvas.width = image.naturalWidth;
      canvas.height = image.naturalHeight;
      canvas.getContext('2d')?.drawImage(image, 0, 0);
      const toBase64 = async (type: string, quality: number) => {
        const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
        if (!blob) throw new Error(`no ${type} encoder`);
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let text = '';
        for (const byte of bytes) text += String.fromCharCode(byte);
        return { size: bytes.length, base64: btoa(text) };
      };
      const fit = async (type: string) => {
        for (let quality = 0.85; quality > 0.3; quality -= 0.05) {
          const encoded = await toBase64(type, quality);
          if (encoded.size <= max) return encoded.base64;
        }
        throw new Error(`${type} does not fit in ${max} bytes`);
      };
      return { webp: await fit('image/webp'), jpg: await fit('image/jpeg') };
    },
    { data: png.toString('base64'), max: MAX_BYTES },
  );
  return { webp: Buffer.from(result.webp, 'base64'), jpg: Buffer.from(result.jpg, 'base64') };
}

/** Closes toasts (support/app.ts has one for tests, but it needs a running Vitest). */
async function dismissToasts(page: Page): Promise<void> {
  const region = page.locator('[role="region"][aria-label^="Notifications"]');
  for (const close of await region.locator('button[aria-label="Close"]').all()) await close.dispatchEvent('click').catch(() => undefined);
  await region
    .locator('li[data-state="open"]')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
  await page.waitForTimeout(250);
}

async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  // The images on screen (lazy ones further down never load until scrolled to).
  await page.waitForFunction(
    () => Array.from(document.images).every((img) => img.complete || img.getBoundingClientRect().top > window.innerHeight),
    undefined,
    { timeout: 15_000 },
  );
  await page.waitForTimeout(300);
}

async function main(): Promise<void> {
  buildWebIfStale();
  // PUBLIC_URL too: links the server writes (texts, the example newsletter) use the same address.
  const demo = await startDemoServer({ PUBLIC_URL: PUBLIC_ORIGIN });
  const { server, account } = demo;
  const browser = await launchBrowser();
  const shots: Record<string, Buffer> = {};
  const newContext = async (): Promise<BrowserContext> => {
    const context = await browser.newContext({ viewport: VIEWPORT, deviceScaleFactor: 2, reducedMotion: 'reduce' });
    await servePublicOrigin(context, server.url);
    return context;
  };
  const shoot = async (page: Page, name: string) => {
    await settle(page).catch((error: unknown) => {
      console.error('settle failed', name, page.isClosed(), browser.isConnected(), page.url());
      throw error;
    });
    shots[name] = await page.screenshot({ type: 'png' });
    console.log(`  shot ${name}`);
  };
  try {
    // Signed out: the Sign Up card, as Get Started for Free! opens it.
    const visitor = await newContext();
    const signUp = await visitor.newPage();
    await signUp.goto(PUBLIC_ORIGIN);
    await signUp.getByRole('link', { name: 'Get Started for Free!' }).first().click();
    await signUp.getByLabel('First Name').fill('Maya');
    await signUp.getByLabel('Last Name').fill('Rivera');
    await signUp.getByLabel('Email').fill('maya@example.com');
    await signUp.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await shoot(signUp, 'sign-up');
    await visitor.close();

    const context = await newContext();
    const page = await context.newPage();
    page.on('crash', () => console.error('the page crashed'));
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto(`${PUBLIC_ORIGIN}/auth`);
    await callApi(page, 'POST', '/api/login', account);
    const loops = await callApi<{ id: number; name: string }[]>(page, 'GET', '/api/loops');
    const family = loops.find((l) => l.name === 'The Rivera Family');
    if (!family) throw new Error('the demo has no Rivera Family');

    await page.goto(PUBLIC_ORIGIN);
    await page.getByRole('button', { name: 'Create Loop' }).first().click();
    await page.getByLabel('Loop Name').fill('Thursday Book Club');
    await page.getByRole('checkbox', { name: 'Friends' }).click();
    await page.getByRole('checkbox', { name: 'Deep' }).click();
    await page.getByLabel('Group Context').fill('Six friends, one book a month, far too much tea.');
    await shoot(page, 'create-loop');

    await page.goto(`${PUBLIC_ORIGIN}/loops/${family.id}`);
    await page.getByRole('tab', { name: 'Members' }).waitFor();
    await shoot(page, 'members');
    await page.getByRole('button', { name: 'Generate Invite Link' }).click();
    await page.getByRole('dialog').waitFor();
    await dismissToasts(page);
    await shoot(page, 'invite');
    await page.keyboard.press('Escape');

    await page.getByRole('tab', { name: 'Updates' }).click();
    await page.getByRole('heading', { name: 'Recent Updates' }).waitFor();
    await shoot(page, 'updates');

    // The owner's review of the coming issue (decision 0040): the Newsletter tab of the Loop that
    // asks for approval, its draft waiting.
    await page.getByRole('tab', { name: 'Newsletter' }).click();
    await page.getByRole('heading', { name: 'Coming Newsletter' }).waitFor();
    await page.getByText(/^Waiting for your approval/).waitFor();
    await shoot(page, 'review');

    const config = await callApi<{ links: { exampleNewsletter: string } }>(page, 'GET', '/api/config');
    await page.goto(new URL(config.links.exampleNewsletter, PUBLIC_ORIGIN).toString());
    await shoot(page, 'newsletter');
    await page
      .locator('main img, article img')
      .first()
      .evaluate((img) => img.closest('section, li, figure, p')?.scrollIntoView({ block: 'start' }));
    await page.evaluate(() => window.scrollBy(0, -72));
    await shoot(page, 'newsletter-photos');
    await context.close();

    const encoder = await (await newContext()).newPage();
    mkdirSync(out, { recursive: true });
    for (const [name, png] of Object.entries(shots)) {
      const { webp, jpg } = await encode(encoder, png);
      writeFileSync(path.join(out, `${name}.webp`), webp);
      writeFileSync(path.join(out, `${name}.jpg`), jpg);
      console.log(`${name}: webp ${(webp.length / 1024).toFixed(0)} KB, jpg ${(jpg.length / 1024).toFixed(0)} KB`);
    }
  } finally {
    await browser.close();
    await demo.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
