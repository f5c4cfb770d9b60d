import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopSummary } from '@loop/shared/loops';
import { dismissToasts, registerAccount, waitGone, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser';
import { addMember, adminLoop, createLoop, waitForText } from '../support/loop-data';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;
let staff: BrowserContext;
const loops: Record<'parkers' | 'books' | 'zeta', LoopSummary> = {} as never;

const OWNER = { firstName: 'Ava', lastName: 'Parker', email: 'ava@example.com', phoneNumber: '+14155550101' };
const STAFF = { firstName: 'Sam', lastName: 'Staff', email: 'staff@example.com', phoneNumber: '+14155550100' };
const PARKERS = [
  { firstName: 'Ben', lastName: 'Parker', phoneNumber: '+14155550102', email: 'ben@example.com', context: 'Uncle in Lisbon' },
  { firstName: 'Cleo', lastName: 'Parker', phoneNumber: '+14155550103' },
];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ADMIN_EMAILS: STAFF.email }), launchBrowser()]);

  // An ordinary account owns three Loops of different sizes; staff did not make any of them.
  const owner = await browser.newContext();
  const ownerPage = await owner.newPage();
  await registerAccount(ownerPage, server.url, OWNER);
  const request = owner.request;
  loops.books = await createLoop(request, server.url, { name: 'Book Club', vibe: ['friends'], context: 'One novel a month' });
  loops.parkers = await createLoop(request, server.url, {
    name: 'The Parkers',
    vibe: ['family', 'fun'],
    context: 'Cousins in three countries',
  });
  for (const member of PARKERS) await addMember(request, server.url, loops.parkers.id, member);
  loops.zeta = await createLoop(request, server.url, { name: 'Zeta Team', vibe: ['co-workers'] });
  await addMember(request, server.url, loops.zeta.id, { firstName: 'Dee', lastName: 'Zed', phoneNumber: '+14155550104' });
  await owner.close();

  staff = await browser.newContext({ viewport: DESKTOP });
  await registerAccount(await staff.newPage(), server.url, STAFF);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The "All Loops" row of a Loop. */
function loopRow(page: Page, name: string) {
  return page.locator('tbody tr', { has: page.getByRole('link', { name, exact: true }) });
}

async function loopNamesInTable(page: Page): Promise<string[]> {
  return page.locator('tbody tr td:first-child a').allTextContents();
}

async function openDashboard(page: Page): Promise<void> {
  await page.goto(`${server.url}/admin`);
  await waitVisible(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 }));
  await waitVisible(loopRow(page, 'The Parkers'));
}

describe('the admin dashboard, on a desktop', () => {
  it('shows totals and charts, searches, sorts, pauses, changes frequency and opens a Loop', async () => {
    const page = await staff.newPage();
    const errors = collectPageErrors(page);

    // Staff find the dashboard in the user menu.
    await page.goto(server.url);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Admin' }).click();
    await waitVisible(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 }));
    await waitVisible(loopRow(page, 'The Parkers'));

    // Stat cards: 3 Loops; members are the owner in each Loop plus 3 others.
    const statValue = (label: string) => page.getByText(label, { exact: true }).locator('xpath=following-sibling::p');
    await expect.poll(() => statValue('Total Loops').textContent()).toBe('3');
    await expect.poll(() => statValue('Total Members').textContent()).toBe('6');
    await expect.poll(() => statValue('Total Updates').textContent()).toBe('0');

    // Two 300 px line charts with a line drawn.
    for (const title of ['Loop Growth', 'Member Growth']) {
      const chart = page.getByRole('img', { name: new RegExp(`^${title}: `) });
      await waitVisible(chart);
      expect((await chart.boundingBox())?.height).toBe(300);
      expect(await chart.locator('path').count()).toBeGreaterThanOrEqual(2);
    }
    await waitVisible(page.getByRole('img', { name: /^Loop Growth: 3 on / }));
    await waitVisible(page.getByText('No newsletters yet.'));

    // Default sort is Most Recent.
    const sort = page.getByLabel('Sort loops');
    expect(await sort.inputValue()).toBe('recent');
    expect(await loopNamesInTable(page)).toEqual(['Zeta Team', 'The Parkers', 'Book Club']);
    await screenshot(page, 'admin-dashboard-1280');

    // Search: trimmed; matches the Loop name or the creator.
    await page.getByPlaceholder('Search loops...').fill('  book ');
    await expect.poll(() => loopNamesInTable(page)).toEqual(['Book Club']);
    await page.getByPlaceholder('Search loops...').fill('ava@example');
    await expect.poll(() => loopNamesInTable(page)).toEqual(['Zeta Team', 'The Parkers', 'Book Club']);
    await page.getByPlaceholder('Search loops...').fill('nothing like this');
    await waitVisible(page.getByText('No loops match your search.'));
    await page.getByPlaceholder('Search loops...').fill('');
    await expect.poll(() => loopNamesInTable(page)).toHaveLength(3);

    // Sort.
    await sort.selectOption({ label: 'Loop Name' });
    await expect.poll(() => loopNamesInTable(page)).toEqual(['Book Club', 'The Parkers', 'Zeta Team']);
    await sort.selectOption({ label: 'Member Count' });
    await expect.poll(() => loopNamesInTable(page)).toEqual(['The Parkers', 'Zeta Team', 'Book Club']);
    await sort.selectOption({ label: 'Most Recent' });
    await expect.poll(() => loopNamesInTable(page)).toEqual(['Zeta Team', 'The Parkers', 'Book Club']);

    // Pause a Loop: the row dims, its state says Paused and its button Resume; the page stays on /admin.
    // The state and the action are apart: "Active" is not a button.
    const zeta = loopRow(page, 'Zeta Team');
    expect(await zeta.getAttribute('data-paused')).toBeNull();
    await waitVisible(zeta.getByText('Active', { exact: true }));
    expect(await zeta.getByRole('button', { name: 'Active' }).count()).toBe(0);
    await zeta.getByRole('button', { name: 'Pause Zeta Team', exact: true }).click();
    await waitToast(page, 'Loop pause state updated successfully');
    await waitVisible(zeta.getByRole('button', { name: 'Resume Zeta Team', exact: true }));
    await waitVisible(zeta.getByText('Paused', { exact: true }));
    expect(await zeta.getAttribute('data-paused')).toBe('true');
    // Dimmed by a tinted background and softer text (not see-through text, which fell below 4.5:1).
    const look = (row: typeof zeta) =>
      row
        .locator('td')
        .nth(1)
        .evaluate((cell) => [getComputedStyle(cell).color, getComputedStyle(cell.parentElement as Element).backgroundColor]);
    const [pausedLook, activeLook] = [await look(zeta), await look(loopRow(page, 'Book Club'))];
    expect(pausedLook[0]).not.toBe(activeLook[0]);
    expect(pausedLook[1]).not.toBe(activeLook[1]);
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect((await adminLoop(staff.request, server.url, loops.zeta.id)).paused).toBe(true);
    await screenshot(page, 'admin-dashboard-paused-1280');
    await dismissToasts(page);

    // Change the frequency inline: no navigation either.
    const parkers = loopRow(page, 'The Parkers');
    // Phones get the same select folded under the name; the desktop shows the one in its column.
    const frequency = parkers.getByLabel('Frequency of The Parkers').filter({ visible: true });
    expect(await frequency.inputValue()).toBe('biweekly');
    await frequency.click();
    await frequency.selectOption({ label: 'Monthly' });
    await waitToast(page, 'Loop frequency updated successfully');
    expect(new URL(page.url()).pathname).toBe('/admin');
    expect((await adminLoop(staff.request, server.url, loops.parkers.id)).frequency).toBe('monthly');
    expect(await parkers.locator('td').nth(4).textContent()).toBe('Never');
    await dismissToasts(page);

    // A click anywhere else on the row opens the Loop.
    await parkers.getByText('ava@example.com').click();
    await waitVisible(page.getByRole('heading', { name: 'The Parkers', level: 1 }));
    expect(new URL(page.url()).pathname).toBe(`/admin/loops/${loops.parkers.id}`);
    await waitVisible(page.getByText('Monthly', { exact: true }));

    await page.close();
    expect(errors).toEqual([]);
  });
});

describe('the dashboard charts and load failures', () => {
  it('draws two months of growth with a readable axis and a tooltip', async () => {
    const page = await staff.newPage();
    const errors = collectPageErrors(page);
    const days = Array.from({ length: 60 }, (_, i) => new Date(Date.UTC(2026, 0, 1 + i)).toISOString().slice(0, 10));
    await page.route('**/api/admin/stats', (route) =>
      route.fulfill({
        json: {
          totalLoops: 1250,
          totalMembers: 9800,
          loopGrowth: days.map((date, i) => ({ date, count: Math.round(20 * i + (i * i) / 3) })),
          memberGrowth: days.map((date, i) => ({ date, count: 150 * i + (i % 7) * 20 })),
        },
      }),
    );
    await page.goto(`${server.url}/admin`);
    const chart = page.getByRole('img', { name: 'Loop Growth: 2,340 on 3/1/2026, from 0 on 1/1/2026' });
    await waitVisible(chart);
    await waitVisible(page.getByText('1,250', { exact: true }));
    // Dates on the axis in the browser's format, the first and the last day among them.
    await waitVisible(chart.getByText('1/1/2026', { exact: true }));
    await waitVisible(chart.getByText('3/1/2026', { exact: true }));
    const box = await chart.boundingBox();
    if (!box) throw new Error('no chart box');
    await page.mouse.move(box.x + box.width - 5, box.y + 100);
    await waitVisible(page.getByText('2,340', { exact: true }));
    await screenshot(page, 'admin-charts-60-days-1280');
    await page.close();
    expect(errors).toEqual([]);
  });

  it('shows the error card when the dashboard cannot load', async () => {
    const page = await staff.newPage();
    await page.route('**/api/admin/stats', (route) => route.fulfill({ status: 503, body: 'down' }));
    await page.goto(`${server.url}/admin`);
    await waitVisible(page.getByRole('heading', { name: 'Failed to load admin dashboard' }));
    await waitVisible(page.getByText('503 Service Unavailable', { exact: true }));
    await page.unroute('**/api/admin/stats');
    await page.getByRole('button', { name: 'Try again' }).click();
    await waitVisible(page.getByText('Total Loops', { exact: true }));
    await page.close();
  });
});

describe('the admin Loop page, on a desktop', () => {
  it('shows the Loop, its members, updates and newsletters, and sends a group message', async () => {
    const page = await staff.newPage();
    const errors = collectPageErrors(page);
    await page.goto(`${server.url}/admin/loops/${loops.parkers.id}`);
    await waitVisible(page.getByRole('heading', { name: 'The Parkers', level: 1 }));

    // Loop Information.
    await waitVisible(page.getByRole('heading', { name: 'Loop Information' }));
    await waitVisible(page.getByText('family, fun', { exact: true }));
    await waitVisible(page.getByText('Cousins in three countries', { exact: true }));
    await waitVisible(page.getByText('ava@example.com', { exact: true }));

    // Members: a dash for a missing email or context.
    await waitVisible(page.getByRole('heading', { name: 'Members (3)' }));
    const cleo = page.locator('tr', { hasText: 'Cleo Parker' });
    const cells = await cleo.locator('td').allTextContents();
    expect([cells[0], cells[1], cells[3]]).toEqual(['Cleo Parker', '-', '-']);
    expect(cells[2]).toBe('+1 415 555 0103');
    await waitVisible(page.locator('tr', { hasText: 'Ben Parker' }).getByText('Uncle in Lisbon'));
    await waitVisible(page.getByRole('heading', { name: 'Updates (0)' }));
    await waitVisible(page.getByRole('heading', { name: 'Past Newsletters (0)' }));
    await waitVisible(page.getByText('No newsletters have been generated yet', { exact: true }));
    await screenshot(page, 'admin-loop-1280');

    // Group message: blank text sends nothing; closing clears the text.
    await page.getByRole('button', { name: 'Send Group Message' }).click();
    const dialog = page.getByRole('dialog');
    await waitVisible(dialog.getByText('This message will be sent to all 3 members of The Parkers.', { exact: true }));
    const message = dialog.getByLabel('Message');
    await message.fill('   ');
    expect(await dialog.getByRole('button', { name: 'Review...' }).isDisabled()).toBe(true);
    await message.fill('Draft I will throw away');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await waitGone(dialog);
    await page.getByRole('button', { name: 'Send Group Message' }).click();
    expect(await dialog.getByLabel('Message').inputValue()).toBe('');

    // Then the exact text, who gets it and its cost, before anything is sent (decision 0042).
    await dialog.getByLabel('Message').fill('  Family call on Sunday at 6!  ');
    await screenshot(page, 'admin-group-message-1280');
    await dialog.getByRole('button', { name: 'Review...' }).click();
    await waitVisible(dialog.getByRole('heading', { name: 'Check and send' }));
    expect(await dialog.getByTestId('text-preview').textContent()).toBe('"The Parkers" from Sam: Family call on Sunday at 6!');
    expect(await dialog.getByTestId('text-cost').textContent()).toBe('3 people will get it: 1 text segment each, 3 texts in all.');
    await dialog.getByRole('button', { name: 'Send to 3 people' }).click();
    await waitToast(page, 'Messages sent successfully!');
    await waitGone(dialog);

    // Every member's phone gets it, trimmed.
    for (const phone of [OWNER.phoneNumber, ...PARKERS.map((m) => m.phoneNumber)]) {
      const text = await waitForText(staff.request, server.url, phone, (m) => m.kind === 'group_message');
      // A group message says whose it is and who wrote it (decisions 0038, 0042).
      expect(text.body).toBe('"The Parkers" from Sam: Family call on Sunday at 6!');
    }

    // Nothing to put in a newsletter yet: the server's reason in the error toast.
    await dismissToasts(page);
    await page.getByRole('button', { name: 'Generate Newsletter' }).click();
    await waitVisible(page.locator('[role="region"][aria-label^="Notifications"]').getByText('Error', { exact: true }));
    expect(new URL(page.url()).pathname).toBe(`/admin/loops/${loops.parkers.id}`);

    await page.close();
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });

  it('shows the error card for a Loop that does not exist', async () => {
    const page = await staff.newPage();
    await page.goto(`${server.url}/admin/loops/999999`);
    await waitVisible(page.getByRole('heading', { name: 'Failed to load loop details' }));
    await page.close();
  });
});

describe('the admin screens on a phone', () => {
  it('keep the tables usable: they scroll inside their card, the page does not', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await context.addCookies(await staff.cookies());
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await openDashboard(page);
    await waitVisible(page.getByRole('img', { name: /^Member Growth: / }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // All Loops folds onto phones: its card stays within the screen (no sideways page scroll).
    const scroller = page.locator('table').last().locator('xpath=..');
    expect(await scroller.evaluate((el) => el.getBoundingClientRect().right)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-dashboard-375');

    // The status button still works on a phone, and does not open the row.
    const zeta = loopRow(page, 'Zeta Team');
    const [before, after] = (await adminLoop(staff.request, server.url, loops.zeta.id)).paused
      ? ['Resume Zeta Team', 'Pause Zeta Team']
      : ['Pause Zeta Team', 'Resume Zeta Team'];
    await zeta.getByRole('button', { name: before, exact: true }).click();
    await waitToast(page, 'Loop pause state updated successfully');
    await waitVisible(zeta.getByRole('button', { name: after, exact: true }));
    expect(new URL(page.url()).pathname).toBe('/admin');
    await dismissToasts(page);

    await loopRow(page, 'The Parkers').getByRole('link', { name: 'The Parkers' }).click();
    await waitVisible(page.getByRole('heading', { name: 'The Parkers', level: 1 }));
    await waitVisible(page.getByRole('heading', { name: 'Members (3)' }));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-loop-375');

    await page.getByRole('button', { name: 'Send Group Message' }).click();
    await waitVisible(page.getByRole('dialog', { name: 'Send Message to All Members' }));
    await screenshot(page, 'admin-group-message-375');
    await page.keyboard.press('Escape');

    await context.close();
    expect(errors).toEqual([]);
  });
});

describe('who sees the admin screens', () => {
  it('shows everyone else the not-found screen and no Admin menu item', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    // The admin pages (and their chart) are never part of a non-admin page's download.
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    await page.goto(server.url);
    await waitVisible(page.getByRole('link', { name: 'Sign In' }));
    await registerAccount(page, server.url, { firstName: 'Nia', lastName: 'Other', email: 'nia@example.com', phoneNumber: '+14155550109' });
    await page.goto(server.url);
    await waitVisible(page.getByRole('heading', { name: 'My Loops' }));
    expect(scripts.length).toBeGreaterThan(0);
    expect(scripts.filter((path) => /admin/.test(path))).toEqual([]);

    await page.goto(`${server.url}/admin`);
    await waitVisible(page.getByText(/not found/i));
    expect(await page.getByRole('heading', { name: 'Admin Dashboard' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await waitVisible(page.getByRole('menuitem', { name: 'Profile' }));
    expect(await page.getByRole('menuitem', { name: 'Admin' }).count()).toBe(0);
    await context.close();
  });
});
