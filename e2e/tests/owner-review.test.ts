import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dismissToasts, registerAccount, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo';
import { addMember, createLoop, phoneThread, textFromPhone, waitForText } from '../support/loop-data';

/**
 * The owner's review of their Loop's newsletter (decision 0040), on the demo: its
 * "approve first" Loop's draft was texted to its owner; they read the text, open the link, edit,
 * preview, approve and send it; the automatic Loop's issue is skipped. A second owner (not staff)
 * walks the same from Generate on their own Loop, at the other width.
 */
let demo: DemoServer;
let browser: Browser;
const OWNER_PHONE = '+14155550100';
const RIVERA_MEMBER = '+14155550101';

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemoServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** Waits until the Loop shows this many updates to its owner. */
async function waitForOwnUpdates(page: Page, url: string, loopId: number, count: number): Promise<void> {
  await expect
    .poll(async () => ((await (await page.request.get(`${url}/api/loops/${loopId}`)).json()) as { updates: unknown[] }).updates.length, {
      timeout: 20_000,
    })
    .toBe(count);
}

async function noOverflow(page: Page): Promise<void> {
  const [scroll, width] = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  if ((scroll ?? 0) > (width ?? 0)) {
    await screenshot(page, 'owner-review-overflow');
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
        .slice(-3)
        .map((el) => `${el.tagName}.${el.className} ${el.textContent?.slice(0, 40)}`),
    );
    throw new Error(`page wider than the screen: ${scroll} > ${width}: ${wide.join(' | ')}`);
  }
}

/** Opens the Loop's Newsletter tab. */
async function openNewsletterTab(page: Page, url: string, loopId: number): Promise<void> {
  await page.goto(`${url}/loops/${loopId}`);
  await page.getByRole('tab', { name: 'Newsletter' }).click();
  await waitVisible(page.getByRole('heading', { name: 'Coming Newsletter' }));
}

/** Edits the draft in the editor, saves, and checks the preview page shows the edit. */
async function editAndPreview(page: Page, edit: string): Promise<void> {
  const editor = page.getByRole('textbox', { name: 'Newsletter content' });
  await waitVisible(editor);
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type(edit);
  // The draft saves itself (decision 0041): wait until the server has the edit.
  const [, loopId, newsletterId] = /\/loops\/(\d+)\/newsletters\/(\d+)/.exec(page.url()) ?? [];
  const stored = `/api/loops/${loopId}/newsletters/${newsletterId}/preview`;
  await expect
    .poll(async () => ((await (await page.request.get(new URL(stored, page.url()).toString())).json()) as { content: string }).content, {
      timeout: 15_000,
    })
    .toContain(edit);
  // Back to the top: a full-page picture of a scrolled page draws the sticky top bar mid-page.
  await page.evaluate(() => window.scrollTo(0, 0));
  const href = await page.getByRole('link', { name: 'Open Saved Page' }).first().getAttribute('href');
  expect(href).toMatch(/^\/newsletters\//);
  const preview = await page.context().newPage();
  await preview.goto(new URL(href ?? '', page.url()).toString());
  await screenshot(preview, `owner-review-preview-${page.viewportSize()?.width ?? 0}`);
  await waitVisible(preview.getByText(edit));
  await preview.close();
}

async function sendNow(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Send Now' }).first().click();
  const dialog = page.getByRole('alertdialog', { name: 'Send this newsletter now?' });
  await waitVisible(dialog);
  await dialog.getByRole('button', { name: 'Send Now' }).click();
  await waitToast(page, 'Newsletter sent');
}

async function skipIssue(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Skip This Issue' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Skip this issue?' });
  await waitVisible(dialog);
  await dialog.getByRole('button', { name: 'Skip This Issue' }).click();
  await waitToast(page, 'Issue skipped');
}

describe('the owner reviews a texted draft (375 px)', () => {
  it('reads the text, opens the draft, edits, previews, approves and sends it; skips the other Loop', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const { url } = demo.server;
    await page.request.post(`${url}/api/login`, { data: demo.account });
    const loops = (await (await page.request.get(`${url}/api/loops`)).json()) as { id: number; name: string }[];
    const rivera = loops.find((l) => l.name === 'The Rivera Family')?.id ?? 0;
    const trail = loops.find((l) => l.name === 'Sunday Trail Runners')?.id ?? 0;

    // The owner's phone got the draft's link (the Phone Simulator's thread).
    const thread = await phoneThread(page.request, url, OWNER_PHONE);
    const text = thread.find((m) => m.direction === 'outbound' && m.body.includes('"The Rivera Family" newsletter goes out'));
    expect(text?.body).toMatch(/once you approve it: look at it here https?:\/\/\S+\/loops\/\d+\/newsletters\/\d+$/);
    await page.goto(`${url}/simulator`);
    await screenshot(page, 'owner-review-phone-simulator-375');

    // The link opens the review page (the demo was made for its own address: the path is what counts).
    const link = /(\/loops\/\d+\/newsletters\/\d+)$/.exec(text?.body ?? '')?.[1] ?? '';
    await page.goto(`${url}${link}`);
    await waitVisible(page.getByRole('heading', { name: 'Review Newsletter', level: 1 }));
    await waitVisible(page.getByText(/Waiting for your approval: goes out/));
    await editAndPreview(page, 'Abuela says: bring warm socks to the cabin.');
    await page.getByRole('button', { name: 'Approve', exact: true }).click();
    await waitToast(page, 'Approved: it goes out at its time');
    await waitVisible(page.getByText(/^Approved: goes out/));
    await dismissToasts(page);
    await noOverflow(page);
    await screenshot(page, 'owner-review-approved-375');

    // From the Loop's Newsletter tab: Send now, confirmed.
    await openNewsletterTab(page, url, rivera);
    await waitVisible(page.getByText(/^Approved: goes out/));
    await noOverflow(page);
    await screenshot(page, 'owner-review-tab-375');
    await sendNow(page);
    await waitVisible(page.getByText(/^No draft yet\./));
    await waitForText(page.request, url, RIVERA_MEMBER, (m) => m.body.includes('"The Rivera Family" newsletter is here!'));

    // The automatic Loop's issue, skipped: no draft left, nothing sent.
    await openNewsletterTab(page, url, trail);
    await waitVisible(page.getByText(/^Goes out automatically/));
    await skipIssue(page);
    await waitVisible(page.getByText(/^No draft yet\./));
    await dismissToasts(page);
    await screenshot(page, 'owner-review-skipped-375');
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('an owner who is not staff runs their own Loop (1280 px)', () => {
  it('generates, moves, edits, previews and sends; then skips the next one', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const { url } = demo.server;
    await registerAccount(page, url, { firstName: 'Olive', lastName: 'Smith', email: 'olive@example.com', phoneNumber: '+14155550140' });
    const loop = await createLoop(page.request, url, { name: 'Smith Family', vibe: ['family'] });
    await addMember(page.request, url, loop.id, { firstName: 'Sid', lastName: 'Smith', phoneNumber: '+14155550141' });
    await textFromPhone(page.request, url, '+14155550141', 'YES');
    await textFromPhone(page.request, url, '+14155550141', 'Our new puppy learned to sit!');
    await waitForOwnUpdates(page, url, loop.id, 1);

    await openNewsletterTab(page, url, loop.id);
    await waitVisible(page.getByText(/^No draft yet\./));
    await page.getByRole('button', { name: 'Generate Draft' }).click();
    await waitToast(page, 'Draft written');
    await waitVisible(page.getByText(/^Draft: not scheduled/));

    // Move it to tomorrow, by keyboard: the dialog's field, then Enter.
    await page.getByRole('button', { name: 'Move' }).click();
    const dialog = page.getByRole('dialog', { name: 'Move this newsletter' });
    await waitVisible(dialog);
    const tomorrow = new Date(Date.now() + 86_400_000);
    const pad = (n: number) => String(n).padStart(2, '0');
    await dialog
      .getByLabel('New send time')
      .fill(`${tomorrow.getFullYear()}-${pad(tomorrow.getMonth() + 1)}-${pad(tomorrow.getDate())}T09:00`);
    await page.keyboard.press('Enter');
    await waitToast(page, 'Send time changed');
    await waitVisible(page.getByText(/^Goes out automatically/));
    await dismissToasts(page);
    await screenshot(page, 'owner-review-tab-1280');

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await waitVisible(page.getByRole('heading', { name: 'Review Newsletter', level: 1 }));
    await editAndPreview(page, 'Sid is in charge of the puppy photos.');
    await dismissToasts(page);
    await noOverflow(page);
    await screenshot(page, 'owner-review-editor-1280');
    await sendNow(page);
    await waitForText(page.request, url, '+14155550141', (m) => m.body.includes('"Smith Family" newsletter is here!'));

    // The next one: written, then skipped.
    await textFromPhone(page.request, url, '+14155550141', 'Puppy ate a sock.');
    await waitForOwnUpdates(page, url, loop.id, 2);
    await openNewsletterTab(page, url, loop.id);
    await page.getByRole('button', { name: 'Generate Draft' }).click();
    await waitToast(page, 'Draft written');
    await skipIssue(page);
    await waitVisible(page.getByText(/^No draft yet\./));
    expect(errors).toEqual([]);
    await context.close();
  });
});
