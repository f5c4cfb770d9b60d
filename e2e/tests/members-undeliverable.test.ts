import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { seriousViolations } from '../support/axe';
import { dismissToasts, registerAccount, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// A number the carrier said cannot receive texts (decision 0039): the owner sees why on the
// Members tab and fixes the number with Edit. Without Twilio nothing can answer 30006, so the
// page's read of the Loop is given that state; the edit goes to the real server.
let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

describe('a member whose number cannot receive texts', () => {
  it('shows "Can\'t receive texts (landline)" and fixes the number with Edit, at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Nora',
      lastName: 'Owner',
      email: 'nora@example.com',
      phoneNumber: '+14155550180',
    });
    const created = await page.request.post(`${server.url}/api/loops`, { data: { name: 'Landline Crew', vibe: ['family'] } });
    const loopId = ((await created.json()) as { id: number }).id;
    const added = await page.request.post(`${server.url}/api/loops/${loopId}/members`, {
      data: { firstName: 'Lena', lastName: 'Landline', phoneNumber: '+14155550181' },
    });
    expect(added.status()).toBe(201);
    const whatsapp = await page.request.post(`${server.url}/api/loops/${loopId}/members`, {
      data: { firstName: 'Walt', lastName: 'Nowhats', phoneNumber: '+14155550182' },
    });
    expect(whatsapp.status()).toBe(201);

    let marked = true;
    await page.route(`**/api/loops/${loopId}`, async (route) => {
      const response = await route.fetch();
      const loop = (await response.json()) as LoopDetail;
      if (marked) {
        for (const member of loop.members) {
          if (member.user.firstName === 'Lena')
            Object.assign(member, { state: 'undeliverable', lastError: "Can't receive texts (landline)", resendAt: null });
          if (member.user.firstName === 'Walt') {
            Object.assign(member, {
              state: 'active',
              invitedAt: null,
              resendAt: null,
              deliveryNote: 'WhatsApp says this number has no WhatsApp account, so Loop texts it by SMS.',
            });
          }
        }
      }
      await route.fulfill({ response, json: loop });
    });

    await page.goto(`${server.url}/loops/${loopId}`);
    const row = (name: string) => page.getByRole('listitem').filter({ hasText: name });
    await waitVisible(row('Lena Landline').getByText("Can't receive texts", { exact: true }));
    await waitVisible(row('Lena Landline').getByText(/^Can't receive texts \(landline\): Loop stopped texting this number\./));
    await waitVisible(row('Walt Nowhats').getByText(/has no WhatsApp account, so Loop texts it by SMS\.$/));
    const fits = async () => {
      for (const locator of [
        row('Lena Landline').getByText(/^Can't receive texts \(landline\)/),
        row('Lena Landline').getByRole('button', { name: /Edit Lena Landline/ }),
      ]) {
        const box = await locator.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0) + 1).toBe(true);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    };
    await fits();
    await screenshot(page, 'members-undeliverable-375');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize(DESKTOP);
    await fits();
    await screenshot(page, 'members-undeliverable-1280');

    // Fix the number from the keyboard: Edit, the phone field, Save.
    await row('Lena Landline')
      .getByRole('button', { name: /Edit Lena Landline/ })
      .focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog');
    const phone = dialog.getByLabel('Phone Number');
    await waitVisible(phone);
    await screenshot(page, 'members-undeliverable-edit-1280');
    expect(await seriousViolations(page)).toEqual([]);
    marked = false;
    await phone.fill('4155550183');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await waitToast(page, 'Member updated successfully');
    await dismissToasts(page);
    await waitVisible(row('Lena Landline').getByText('Pending', { exact: true }));
    const loop = (await (await page.request.get(`${server.url}/api/loops/${loopId}`)).json()) as LoopDetail;
    expect(loop.members.find((m) => m.user.firstName === 'Lena')).toMatchObject({
      state: 'pending',
      user: { phoneNumber: '+14155550183' },
    });
    await page.setViewportSize(PHONE);
    await screenshot(page, 'members-undeliverable-fixed-375');
    expect(errors).toEqual([]);
    await context.close();
  });
});
