import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LoopSummary } from '@loop/shared/loops';
import { registerAccount, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import { createLoop } from '../support/loop-data';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

// Loop names and people's names go into texts: a link or a phone number in one is refused under
// the field, by the same shared rule the server applies.
describe.each([
  ['phone', PHONE, '+14155550121'],
  ['desktop', DESKTOP, '+14155550122'],
] as const)('names that could phish, on a %s', (label, viewport, phoneNumber) => {
  it('Create Loop and Add Member show why under the field and send nothing', async () => {
    const width = viewport.width;
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && /\/api\/loops/.test(request.url())) posts.push(request.url());
    });
    await registerAccount(page, server.url, { firstName: 'Ava', lastName: 'Parker', email: `ava-${label}@example.com`, phoneNumber });

    await page.goto(server.url);
    await page
      .getByRole('button', { name: /Create (Your First )?Loop/ })
      .first()
      .click();
    const create = page.getByRole('dialog', { name: 'Create Loop' });
    await create.getByLabel('Loop Name').fill('URGENT bank alert: verify at evil.co/x');
    await create.getByRole('checkbox', { name: 'Family', exact: true }).click();
    await create.getByRole('button', { name: 'Create Loop' }).click();
    await waitVisible(create.getByText(/^Loop name can't contain a link or web address/));
    expect(await create.getByLabel('Loop Name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `name-rules-create-loop-${width}`);
    expect(posts).toEqual([]);
    await page.keyboard.press('Escape');

    const loop: LoopSummary = await createLoop(page.request, server.url, { name: `Parkers ${label}`, vibe: ['family'] });
    await page.goto(`${server.url}/loops/${loop.id}`);
    await page.getByRole('button', { name: 'Add Member' }).click();
    const add = page.getByRole('dialog', { name: 'Add Member' });
    await add.getByLabel('First Name').fill('Ben');
    await add.getByLabel('Last Name').fill('call 415 555 0199');
    await add.getByLabel('Phone Number').fill('415 555 0190');
    await add.getByRole('button', { name: 'Add Member' }).click();
    await waitVisible(add.getByText(/^Last name can't contain a phone number/));
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, `name-rules-add-member-${width}`);
    expect(posts.filter((url) => url.endsWith('/members'))).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
