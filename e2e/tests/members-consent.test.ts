import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LoopDetail, MemberState } from '@loop/shared/loops';
import { registerAccount, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// Issue 15: the Members tab shows pending / active / opted out, with "Resend invitation" for pending members.
let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const PEOPLE = {
  pending: { firstName: 'Penny', lastName: 'Waiting', phoneNumber: '+14155550171' },
  active: { firstName: 'Arlo', lastName: 'Joined', phoneNumber: '+14155550172' },
  optedOut: { firstName: 'Otto', lastName: 'Stopped', phoneNumber: '+14155550173' },
};

async function stateOf(page: Page, loopId: number, phone: string): Promise<MemberState | undefined> {
  const loop = (await (await page.request.get(`${server.url}/api/loops/${loopId}`, RETRY_RESET)).json()) as LoopDetail;
  return loop.members.find((m) => m.user.phoneNumber === phone)?.state;
}

/** Texts from a member's phone in the Phone Simulator (the owner may play text-only members of their Loop). */
async function textFrom(page: Page, loopId: number, phone: string, body: string, expected: MemberState) {
  const res = await page.request.post(`${server.url}/api/simulator/phones/${encodeURIComponent(phone)}/messages`, { data: { body } });
  expect(res.status()).toBe(202);
  for (let i = 0; i < 100 && (await stateOf(page, loopId, phone)) !== expected; i++) await page.waitForTimeout(100);
  expect(await stateOf(page, loopId, phone)).toBe(expected);
}

describe('member states on the Members tab', () => {
  it('shows pending with its invitation date and resend, active, and opted out, at 375 and 1280 px', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Olive',
      lastName: 'Owner',
      email: 'olive@example.com',
      phoneNumber: '+14155550170',
    });
    const created = await page.request.post(`${server.url}/api/loops`, { data: { name: 'Consent Crew', vibe: ['family'] } });
    const loopId = ((await created.json()) as { id: number }).id;
    for (const person of Object.values(PEOPLE)) {
      expect((await page.request.post(`${server.url}/api/loops/${loopId}/members`, { data: person })).status()).toBe(201);
    }
    await textFrom(page, loopId, PEOPLE.active.phoneNumber, 'YES', 'active');
    await textFrom(page, loopId, PEOPLE.optedOut.phoneNumber, 'STOP', 'opted_out');

    await page.goto(`${server.url}/loops/${loopId}`);
    const row = (name: string) => page.getByRole('listitem').filter({ hasText: name });
    await waitVisible(row('Penny Waiting').getByText('Pending', { exact: true }));
    await waitVisible(row('Penny Waiting').getByText(/^Invited .*: waiting for them to reply YES\.$/));
    const resend = row('Penny Waiting').getByRole('button', { name: /Resend invitation/ });
    await waitVisible(resend);
    // Invited a moment ago: a resend waits a day, and the row says until when.
    expect(await resend.isDisabled()).toBe(true);
    await waitVisible(row('Penny Waiting').getByText(/^You can resend after /));
    await waitVisible(row('Arlo Joined').getByText('Active', { exact: true }));
    expect(
      await row('Arlo Joined')
        .getByRole('button', { name: /Resend invitation/ })
        .count(),
    ).toBe(0);
    await waitVisible(row('Otto Stopped').getByText('Opted out', { exact: true }));
    await waitVisible(row('Otto Stopped').getByText('Texted STOP: Loop sends them nothing until they text START.'));
    expect(
      await row('Otto Stopped')
        .getByRole('button', { name: /Resend invitation/ })
        .count(),
    ).toBe(0);

    await screenshot(page, 'members-states-375');
    // The state badges, their sentences and the resend button stay on screen (the tab's own 375 px
    // overflow is issue 18's to fix).
    const fits = async () => {
      for (const locator of [
        resend,
        row('Penny Waiting').getByText('Pending', { exact: true }),
        row('Otto Stopped').getByText(/^Texted STOP/),
      ]) {
        const box = await locator.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0) + 1).toBe(true);
      }
      return true;
    };
    expect(await fits()).toBe(true);
    await page.setViewportSize(DESKTOP);
    await waitVisible(row('Penny Waiting').getByText('Pending', { exact: true }));
    expect(await fits()).toBe(true);
    await screenshot(page, 'members-states-1280');
    expect(errors).toEqual([]);
    await context.close();
  });
});
