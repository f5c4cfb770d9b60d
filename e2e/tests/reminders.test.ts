import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ComingIssueAnswer } from '@loop/shared/reminder-questions';
import { dismissToasts, registerAccount, waitToast, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import { addMember, createLoop, textFromPhone } from '../support/loop-data';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// Decision 0043: the owner sees who has sent something for the coming issue, and adds their own
// reminder questions, at 375 and 1280 px.
let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

async function expectFits(page: Page) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  for (const button of await page.getByRole('button', { name: /Add question|Remove/ }).all()) {
    const box = await button.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width + 1).toBe(true);
  }
}

describe('reminders on the Loop page', () => {
  it("shows who has sent something and the owner's own questions at 375 and 1280 px", async () => {
    const context = await browser.newContext({ viewport: PHONE, locale: 'en-US' });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Rita',
      lastName: 'Owner',
      email: 'rita@example.com',
      phoneNumber: '+14155550190',
    });
    const loop = await createLoop(page.request, server.url, { name: 'Garcia Family', vibe: ['family'], timeZone: 'UTC' });
    await addMember(page.request, server.url, loop.id, { firstName: 'Sam', lastName: 'Garcia', phoneNumber: '+14155550191' });
    await addMember(page.request, server.url, loop.id, { firstName: 'Tess', lastName: 'Garcia-Longname', phoneNumber: '+14155550192' });
    await textFromPhone(page.request, server.url, '+14155550191', 'We went to the lake on Saturday!');
    // The worker turns the text into an update within a moment.
    await expect
      .poll(
        async () =>
          ((await (await page.request.get(`${server.url}/api/loops/${loop.id}/coming-issue`)).json()) as ComingIssueAnswer).sent.length,
        {
          timeout: 20_000,
        },
      )
      .toBe(1);

    await page.goto(`${server.url}/loops/${loop.id}`);
    await page.getByRole('tab', { name: /Settings/ }).click();
    const sent = page.getByRole('region', { name: 'Sent something (1)' });
    const silent = page.getByRole('region', { name: 'Not yet (2)' });
    await waitVisible(sent.getByText('Sam Garcia'));
    await waitVisible(silent.getByText('Tess Garcia-Longname'));
    await waitVisible(silent.getByText('Rita Owner'));

    // A link is refused with the name rules' words; a good question is added.
    const input = page.getByLabel('Add a question');
    await input.fill('Prizes at bit.ly/win');
    await page.getByRole('button', { name: 'Add question' }).click();
    await waitVisible(page.getByText(/A question can't contain a link/));
    await input.fill('Who visited Grandma this week?');
    await page.getByRole('button', { name: 'Add question' }).click();
    await waitToast(page, 'Question added');
    await waitVisible(page.getByRole('region', { name: 'Your questions' }).getByText('Who visited Grandma this week?'));
    await dismissToasts(page);
    await page.getByRole('heading', { name: 'Coming issue' }).scrollIntoViewIfNeeded();
    await expectFits(page);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'reminders-375');
    await page.getByRole('heading', { name: 'Reminder questions' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'reminders-questions-375');

    await page.setViewportSize(DESKTOP);
    await page.getByRole('heading', { name: 'Coming issue' }).scrollIntoViewIfNeeded();
    await expectFits(page);
    await screenshot(page, 'reminders-1280');

    // Saved on the server: a reload shows it, and removing it empties the list again.
    await page.reload();
    await page.getByRole('tab', { name: /Settings/ }).click();
    await page.getByRole('button', { name: 'Remove "Who visited Grandma this week?"' }).click();
    await waitToast(page, 'Question removed');
    await waitVisible(page.getByText(/None yet: reminders use the questions/));
    expect(errors).toEqual([]);
    await context.close();
  });
});
