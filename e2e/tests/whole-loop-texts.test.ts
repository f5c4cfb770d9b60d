import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopSummary } from '@loop/shared/loops';
import type { GenerateNewsletterAnswer } from '@loop/shared/newsletters';
import { registerAccount, waitGone, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser';
import { addMember, createLoop, textFromPhone, waitForUpdates } from '../support/loop-data';
import { startServer, type RunningServer } from '../support/server';

/**
 * Texts to a whole Loop are deliberate (decision 0042): the owner's group message with a
 * time, its cost shown before it goes, cancelled from the Loop page; staff's sneak peek confirm;
 * and the past issues behind a newsletter's link, with its print button. At 375 and 1280 px.
 */
let server: RunningServer;
let browser: Browser;
let owner: BrowserContext;
let staff: BrowserContext;
let loop: LoopSummary;
let urlId: string;

const OWNER = { firstName: 'Ava', lastName: 'Parker', email: 'ava@example.com', phoneNumber: '+14155550101' };
const STAFF = { firstName: 'Sam', lastName: 'Staff', email: 'staff@example.com', phoneNumber: '+14155550100' };
const BEN = { firstName: 'Ben', lastName: 'Parker', phoneNumber: '+14155550102' };
const CLEO = { firstName: 'Cleo', lastName: 'Parker', phoneNumber: '+14155550103' };

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ADMIN_EMAILS: STAFF.email }), launchBrowser()]);
  owner = await browser.newContext({ viewport: DESKTOP });
  await registerAccount(await owner.newPage(), server.url, OWNER);
  loop = await createLoop(owner.request, server.url, { name: 'The Parkers', vibe: ['family'] });
  await addMember(owner.request, server.url, loop.id, BEN);
  await addMember(owner.request, server.url, loop.id, CLEO);
  staff = await browser.newContext({ viewport: DESKTOP });
  await registerAccount(await staff.newPage(), server.url, STAFF);

  // One newsletter sent, a second update waiting for the sneak peek.
  await textFromPhone(staff.request, server.url, BEN.phoneNumber, 'Caught a huge trout at the lake this weekend!');
  await waitForUpdates(staff.request, server.url, loop.id, 1);
  const generated = await staff.request.post(`${server.url}/api/loops/${loop.id}/newsletters/generate`);
  const { newsletter } = (await generated.json()) as GenerateNewsletterAnswer;
  expect((await staff.request.post(`${server.url}/api/loops/${loop.id}/newsletters/${newsletter.id}/send`)).ok()).toBe(true);
  urlId = newsletter.urlId;
  await textFromPhone(staff.request, server.url, CLEO.phoneNumber, 'Started my new job at the bakery. Free croissants!');
  await waitForUpdates(staff.request, server.url, loop.id, 2);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const fitsWidth = async (page: Page, width: number) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);

describe.each([
  ['375', PHONE],
  ['1280', DESKTOP],
])('at %s px', (size, viewport) => {
  it("the owner schedules a group message after seeing its cost, then cancels it from the Loop's page", async () => {
    const page = await owner.newPage();
    const errors = collectPageErrors(page);
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/loops/${loop.id}`);
    await waitVisible(page.getByRole('heading', { name: 'Group messages' }));
    await page.getByRole('button', { name: 'Send Group Message' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Message').fill(`Picnic on Sunday at noon, bring a chair! (${size})`);
    await dialog.getByRole('radio', { name: 'Later' }).click();
    const at = new Date(Date.now() + 2 * 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await dialog.getByLabel('Send at (your time)').fill(`${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T10:30`);
    await screenshot(page, `owner-group-message-write-${size}`);
    await dialog.getByRole('button', { name: 'Review...' }).click();
    await waitVisible(dialog.getByRole('heading', { name: 'Check and send' }));
    expect(await dialog.getByTestId('text-preview').textContent()).toBe(
      `"The Parkers" from Ava: Picnic on Sunday at noon, bring a chair! (${size})`,
    );
    // Its sender, Ava, gets no copy.
    expect(await dialog.getByTestId('text-cost').textContent()).toBe('2 people will get it: 1 text segment each, 2 texts in all.');
    await waitVisible(dialog.getByText('To: Ben, Cleo.'));
    await fitsWidth(page, viewport.width);
    await screenshot(page, `owner-group-message-confirm-${size}`);
    await dialog.getByRole('button', { name: 'Schedule it' }).click();
    await waitToast(page, 'Group message scheduled');
    await waitGone(dialog);

    const item = page.locator('li', { hasText: `(${size})` });
    await waitVisible(item.getByText(/^Goes out /));
    await screenshot(page, `owner-group-messages-${size}`);
    await item.getByRole('button', { name: 'Cancel this message' }).click();
    await waitToast(page, 'Group message cancelled');
    await waitVisible(item.getByText(/Cancelled/));
    await page.close();
    expect(errors).toEqual([]);
  });

  it('staff see the sneak peek, its recipients and cost, and can back out', async () => {
    const page = await staff.newPage();
    const errors = collectPageErrors(page);
    await page.setViewportSize(viewport);
    await page.goto(`${server.url}/admin/loops/${loop.id}`);
    await page.getByRole('button', { name: 'Send Sneak Peek...' }).click();
    const dialog = page.getByRole('dialog', { name: 'Send a sneak peek?' });
    await waitVisible(dialog.getByTestId('text-cost'));
    expect(await dialog.getByTestId('text-preview').textContent()).toMatch(/^Sneak peek from "The Parkers": 1 update from Cleo so far!/);
    await waitVisible(dialog.getByRole('button', { name: 'Send to 3 people' }));
    await fitsWidth(page, viewport.width);
    await screenshot(page, `sneak-peek-confirm-${size}`);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await waitGone(dialog);
    await page.close();
    expect(errors).toEqual([]);
  });

  it("a newsletter's page leads to the Loop's past issues and prints", async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.addInitScript(() => {
      window.print = () => {
        document.documentElement.dataset.printed = 'yes';
      };
    });
    await page.goto(`${server.url}/newsletters/${urlId}`);
    const print = page.getByRole('button', { name: 'Print / Save as PDF' });
    await waitVisible(print);
    await print.click();
    expect(await page.evaluate(() => document.documentElement.dataset.printed)).toBe('yes');
    await fitsWidth(page, viewport.width);
    await screenshot(page, `newsletter-tools-${size}`);
    // Someone holding only the link reads this issue; the list of past issues is the members' (decision 0053).
    await page.getByRole('link', { name: 'All past issues' }).click();
    await waitVisible(page.getByRole('heading', { name: "Past issues are for the Loop's members", level: 1 }));
    await fitsWidth(page, viewport.width);
    await screenshot(page, `archive-members-only-${size}`);
    // Without a newsletter's link: nothing.
    const stranger = await page.goto(`${server.url}/newsletters/${'A'.repeat(43)}/archive`);
    expect(stranger?.status()).toBe(404);
    await context.close();
    // The owner, signed in, follows the same link to the list.
    const ownerPage = await owner.newPage();
    await ownerPage.setViewportSize(viewport);
    await ownerPage.goto(`${server.url}/newsletters/${urlId}`);
    await ownerPage.getByRole('link', { name: 'All past issues' }).click();
    await waitVisible(ownerPage.getByRole('heading', { name: 'The Parkers', level: 1 }));
    await waitVisible(ownerPage.getByText('1 issue, newest first'));
    await fitsWidth(ownerPage, viewport.width);
    await screenshot(ownerPage, `archive-${size}`);
    await ownerPage.close();
  });
});
