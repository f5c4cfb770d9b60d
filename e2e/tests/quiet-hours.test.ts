import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { registerAccount, waitToast, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// 47 CFR 64.1200(c)(1): no texts before 8 a.m. or after 9 p.m. at the recipient's location. The
// real server's clock cannot be moved, so its quiet hours are set to the two hours around now in
// New York: an invitation to a New York phone then waits, and the owner sees until when.
const hourInNewYork = Number(
  new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', hour: 'numeric', hourCycle: 'h23' }).format(new Date()),
);
const pad = (hour: number) => String((hour + 24) % 24).padStart(2, '0');
const QUIET_HOURS = `${pad(hourInNewYork)}:00-${pad(hourInNewYork + 2)}:00`;
const WAKES_AT = new Date(2000, 0, 1, (hourInNewYork + 2) % 24, 0).toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' });

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]), { QUIET_HOURS });

const NEW_YORKER = { firstName: 'Nia', lastName: 'York', phoneNumber: '+12125550181' };

async function expectFits(page: Page, texts: (string | RegExp)[]) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const text of texts) {
    const box = await page.getByText(text).first().boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width + 1, String(text)).toBe(true);
  }
}

describe('quiet hours and time zones in the browser', () => {
  it('shows a waiting invitation, member zones, the reminder picker and the profile zone at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Quinn',
      lastName: 'Owner',
      email: 'quinn@example.com',
      phoneNumber: '+14155550180',
    });
    const created = await page.request.post(`${server.url}/api/loops`, {
      // A reminder time well clear of this test's quiet window, which moves with the clock.
      data: {
        name: 'Night Owls',
        vibe: ['family'],
        timeZone: 'Europe/London',
        reminderSchedule: [{ day: 'thursday', time: `${pad((hourInNewYork + 6) % 24)}:00` }],
      },
    });
    const loopId = ((await created.json()) as { id: number }).id;
    expect((await page.request.post(`${server.url}/api/loops/${loopId}/members`, { data: NEW_YORKER })).status()).toBe(201);
    // The worker defers the invitation within a second.
    let scheduledFor: string | null = null;
    for (let i = 0; i < 100 && !scheduledFor; i++) {
      const loop = (await (await page.request.get(`${server.url}/api/loops/${loopId}`, RETRY_RESET)).json()) as LoopDetail;
      scheduledFor = loop.members.find((m) => m.user.phoneNumber === NEW_YORKER.phoneNumber)?.scheduledFor ?? null;
      if (!scheduledFor) await page.waitForTimeout(100);
    }
    expect(scheduledFor).not.toBeNull();

    await page.goto(`${server.url}/loops/${loopId}`);
    await page.getByRole('tab', { name: /Members/ }).click();
    const waiting = `Texts scheduled for ${WAKES_AT} their time`;
    await waitVisible(page.getByText(waiting));
    await waitVisible(page.getByText('America / New York'));
    await expectFits(page, [waiting, 'America / New York']);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quiet-members-375');
    await page.setViewportSize(DESKTOP);
    await expectFits(page, [waiting]);
    await screenshot(page, 'quiet-members-1280');

    // The owner sets the member's zone in the edit dialog, by keyboard.
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: /Edit\s*Nia York/ }).click();
    const dialog = page.getByRole('dialog');
    const zone = dialog.getByLabel('Time Zone');
    await zone.focus();
    await zone.selectOption('America/Chicago');
    await waitVisible(dialog.getByText(/now America \/ New York \(from their phone number\)/));
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quiet-member-edit-375');
    await dialog.getByRole('button', { name: 'Save Changes' }).click();
    await waitToast(page, 'Member updated successfully');
    await waitVisible(page.getByText('America / Chicago'));

    // The reminder picker offers no time in quiet hours or within 30 minutes of them.
    await page.getByRole('tab', { name: /Settings/ }).click();
    const picker = page.getByRole('combobox', { name: 'Thursday reminder time' });
    await waitVisible(picker);
    const options = await picker.locator('option').evaluateAll((list) => list.map((o) => (o as HTMLOptionElement).value));
    expect(options).not.toContain(`${pad(hourInNewYork + 1)}:00`);
    expect(options).not.toContain(`${pad(hourInNewYork - 1)}:35`);
    await waitVisible(page.getByText(/Loop sends no texts from .* in each member's own time\./));
    await expectFits(page, [/Loop sends no texts from/]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quiet-settings-375');
    await page.setViewportSize(DESKTOP);
    await screenshot(page, 'quiet-settings-1280');

    // The person's own zone on Profile.
    await page.goto(`${server.url}/profile`);
    const own = page.getByLabel('Time Zone');
    await waitVisible(own);
    await own.selectOption('Asia/Tokyo');
    await waitToast(page, 'Time zone updated successfully!');
    const me = (await (await page.request.get(`${server.url}/api/user`, RETRY_RESET)).json()) as { timeZone: string | null };
    expect(me.timeZone).toBe('Asia/Tokyo');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'quiet-profile-1280');
    await page.setViewportSize(PHONE);
    await expectFits(page, [/Reminders reach you at each loop's times/]);
    await screenshot(page, 'quiet-profile-375');

    expect(errors).toEqual([]);
    await context.close();
  });
});
