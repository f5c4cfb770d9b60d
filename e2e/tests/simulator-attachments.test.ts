import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { registerAccount, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import { addMember, createLoop } from '../support/loop-data';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// The Phone Simulator sends what real phones send besides text and photos (a
// contact card, a PDF, a WhatsApp location pin), and Loop answers each accurately. Payload shapes
// follow Twilio's webhook page: https://www.twilio.com/docs/messaging/guides/webhook-request
// (MediaContentType0 text/vcard, application/pdf; WhatsApp MessageType=location with Latitude/Longitude).

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

describe('the Phone Simulator’s attachment menu', () => {
  for (const [viewport, width] of [
    [PHONE, 375],
    [DESKTOP, 1280],
  ] as const) {
    it(`sends a contact card and a location pin, each answered, at ${width} px`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      const n = width === 375 ? '1' : '2';
      await registerAccount(page, server.url, {
        firstName: 'Rosa',
        lastName: 'Diaz',
        email: `rosa${n}@example.com`,
        phoneNumber: `+1415555016${n}`,
      });
      const loop = await createLoop(page.request, server.url, { name: `Diaz Family ${n}`, vibe: ['family'] });
      const member = { firstName: 'Tomas', lastName: 'Diaz', phoneNumber: `+1415555017${n}`, messagingPreference: 'whatsapp' as const };
      await addMember(page.request, server.url, loop.id, member);

      await page.goto(`${server.url}/simulator`);
      await page.getByRole('link', { name: /Tomas Diaz/ }).click();
      const thread = page.getByRole('log', { name: 'Texts with Tomas' });
      await waitVisible(thread);

      // The menu opens above the box, whole on the screen.
      await page.getByRole('button', { name: 'Send something else' }).click();
      const menu = page.getByRole('menu');
      await waitVisible(menu.getByRole('menuitem', { name: 'A contact card' }));
      await waitVisible(menu.getByRole('menuitem', { name: 'My location' }));
      const box = await menu.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      // The phone's header (name, number, channel) fits too: it shortens with "…", never runs off.
      // (CSS, not roles: the open menu hides the rest of the page from assistive technology.)
      const header = page.locator('header', { has: page.locator('h2', { hasText: 'Tomas Diaz' }) });
      expect(
        await header.evaluate((el, w) => [el, ...el.querySelectorAll('*')].every((e) => e.getBoundingClientRect().right <= w), width),
      ).toBe(true);
      await screenshot(page, `simulator-attachments-menu-${width}`);

      await menu.getByRole('menuitem', { name: 'A contact card' }).click();
      await waitVisible(thread.getByText(/^Loop can't share a contact card/), 20_000);

      await page.getByRole('button', { name: 'Send something else' }).click();
      await page.getByRole('menuitem', { name: 'My location' }).click();
      await waitVisible(thread.getByText(/^Loop can't share a location pin\./), 20_000);
      await screenshot(page, `simulator-attachments-answered-${width}`);

      // Neither became an update of the Loop.
      const detail = (await (await page.request.get(`${server.url}/api/loops/${loop.id}`, RETRY_RESET)).json()) as { updates: unknown[] };
      expect(detail.updates).toEqual([]);
      await context.close();
      expect(errors).toEqual([]);
    });
  }
});
