import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerAccount, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import { addMember, createLoop, textFromPhone } from '../support/loop-data';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;

const OWNER = { firstName: 'Ava', lastName: 'Cover', email: 'ava.cover@example.com', phoneNumber: '+14155550131' };
const BEN = { firstName: 'Ben', lastName: 'Cover', phoneNumber: '+14155550132' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Nothing wider than the screen. */
const fits = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

describe('the Loop’s cover photo', () => {
  it('the owner uploads one in Settings; the newsletter’s page and its print view show it, at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, OWNER);
    const loop = await createLoop(context.request, server.url, { name: 'The Cover Family', vibe: ['family'] });
    await addMember(context.request, server.url, loop.id, BEN);

    // A photo drawn in the page, uploaded the way the Settings card does (base64 JSON).
    const photo = await page.evaluate(() => {
      const canvas = document.createElement('canvas');
      canvas.width = 1200;
      canvas.height = 500;
      const g = canvas.getContext('2d')!;
      g.fillStyle = '#d98c5f';
      g.fillRect(0, 0, 1200, 500);
      g.fillStyle = '#2b6f8f';
      g.fillRect(0, 300, 1200, 200);
      return canvas.toDataURL('image/png').replace(/^data:[^,]*,/, '');
    });
    const put = await context.request.put(`${server.url}/api/loops/${loop.id}/cover`, { data: { photo, alt: 'The lake at dusk' } });
    expect(put.status()).toBe(200);

    for (const [viewport, name] of [
      [DESKTOP, '1280'],
      [PHONE, '375'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/loops/${loop.id}`);
      await page.getByRole('tab', { name: 'Settings' }).click();
      await waitVisible(page.getByRole('img', { name: 'The lake at dusk' }));
      await waitVisible(page.getByRole('button', { name: 'Remove cover' }));
      expect(await fits(page)).toBe(true);
      await screenshot(page, `loop-cover-settings-${name}`);
    }

    await page.setViewportSize(DESKTOP);
    await page.getByRole('textbox', { name: /Description/ }).fill('Our lake, at dusk');
    await page.getByRole('button', { name: 'Save description' }).click();
    await waitToast(page, 'Description saved');

    // A newsletter needs news: Ben texts an update first.
    await textFromPhone(context.request, server.url, BEN.phoneNumber, 'We swam across the lake this morning!');
    // (The owner's own view of the Loop: waitForUpdates() reads the staff page.)
    await expect
      .poll(
        async () =>
          ((await (await context.request.get(`${server.url}/api/loops/${loop.id}`)).json()) as { updates: unknown[] }).updates.length,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);
    const generated = await context.request.post(`${server.url}/api/loops/${loop.id}/newsletters/generate`, RETRY_RESET);
    expect(generated.status(), await generated.text()).toBe(201);
    const { newsletter } = (await generated.json()) as { newsletter: { id: number; urlId: string } };
    expect((await context.request.post(`${server.url}/api/loops/${loop.id}/newsletters/${newsletter.id}/send`)).status()).toBe(200);

    for (const [viewport, name] of [
      [PHONE, '375'],
      [DESKTOP, '1280'],
    ] as const) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/newsletters/${newsletter.urlId}`);
      const cover = page.getByRole('img', { name: 'Our lake, at dusk' });
      await waitVisible(cover);
      expect(await cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      expect(await fits(page)).toBe(true);
      // The reactions under the issue keep off the screen's edges, as the text above them does.
      const reactions = (await page.getByRole('region', { name: 'Reactions' }).boundingBox())!;
      expect(reactions.x).toBeGreaterThanOrEqual(16);
      expect(reactions.x + reactions.width).toBeLessThanOrEqual(viewport.width - 16);
      await screenshot(page, `loop-cover-page-${name}`);
    }
    // On paper too.
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('img', { name: 'Our lake, at dusk' }).isVisible()).toBe(true);
    await screenshot(page, 'loop-cover-print');
    expect(errors).toEqual([]);
    await context.close();
  });
});
