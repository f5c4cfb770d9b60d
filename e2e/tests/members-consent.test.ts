import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LoopDetail, MemberState } from '@loop/shared/loops';
import { registerAccount, waitGone, waitToast, waitVisible, type Person } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// Decision 0015: the Members tab shows pending / active / opted out, with "Resend invitation" for pending members;
// decision 0035: declined and never invited too, and signing up answers no invitation: My Loops does.
let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const PEOPLE = {
  pending: { firstName: 'Penny', lastName: 'Waiting', phoneNumber: '+14155550171' },
  active: { firstName: 'Arlo', lastName: 'Joined', phoneNumber: '+14155550172' },
  optedOut: { firstName: 'Otto', lastName: 'Stopped', phoneNumber: '+14155550173' },
};
/** Texted STOP before this Loop added them: no invitation went. */
const NOT_INVITED = { firstName: 'Nora', lastName: 'Quiet', phoneNumber: '+14155550174' };
/** Has an account, and declined on My Loops. */
const DECLINER = { firstName: 'Dora', lastName: 'Declined', phoneNumber: '+14155550175', email: 'dora@example.com' };

async function stateOf(page: Page, loopId: number, phone: string): Promise<MemberState | undefined> {
  const loop = (await (await page.request.get(`${server.url}/api/loops/${loopId}`, RETRY_RESET)).json()) as LoopDetail;
  return loop.members.find((m) => m.user.phoneNumber === phone)?.state;
}

/**
 * Texts from a member's phone in the Phone Simulator, played by `sender` (the owner may play
 * text-only members of their Loop; STOP only the phone's holder sends, decision 0031).
 */
async function textFrom(page: Page, loopId: number, phone: string, body: string, expected: MemberState, sender = page) {
  const res = await sender.request.post(`${server.url}/api/simulator/phones/${encodeURIComponent(phone)}/messages`, { data: { body } });
  expect(res.status()).toBe(202);
  for (let i = 0; i < 100 && (await stateOf(page, loopId, phone)) !== expected; i++) await page.waitForTimeout(100);
  expect(await stateOf(page, loopId, phone)).toBe(expected);
}

/** The phone's holder signs up in a browser of their own and texts from their own phone. */
async function textFromOwnPhone(page: Page, loopId: number, person: Person, body: string, expected: MemberState) {
  const context = await browser.newContext();
  const own = await context.newPage();
  await registerAccount(own, server.url, person);
  await textFrom(page, loopId, person.phoneNumber, body, expected, own);
  await context.close();
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
    // STOP is the phone's own to send (decision 0031): Otto signs up and texts it from his phone.
    await textFromOwnPhone(page, loopId, { ...PEOPLE.optedOut, email: 'otto@example.com' }, 'STOP', 'opted_out');
    // Nora texts STOP as a member of another of Olive's Loops, then Olive adds her here: nothing is sent.
    const side = await page.request.post(`${server.url}/api/loops`, { data: { name: 'Side Loop', vibe: ['fun'] } });
    const sideId = ((await side.json()) as { id: number }).id;
    expect((await page.request.post(`${server.url}/api/loops/${sideId}/members`, { data: NOT_INVITED })).status()).toBe(201);
    await textFromOwnPhone(page, sideId, { ...NOT_INVITED, email: 'nora@example.com' }, 'STOP', 'opted_out');
    expect((await page.request.post(`${server.url}/api/loops/${loopId}/members`, { data: NOT_INVITED })).status()).toBe(201);
    expect(await stateOf(page, loopId, NOT_INVITED.phoneNumber)).toBe('not_invited');
    // Dora has an account; Olive adds her, and she declines on My Loops (here through its API).
    const dora = await browser.newContext();
    const doraPage = await dora.newPage();
    await registerAccount(doraPage, server.url, DECLINER);
    expect((await page.request.post(`${server.url}/api/loops/${loopId}/members`, { data: DECLINER })).status()).toBe(201);
    const [doraInvitation] = (await (await doraPage.request.get(`${server.url}/api/invitations`)).json()) as { id: number }[];
    expect((await doraPage.request.post(`${server.url}/api/invitations/${doraInvitation?.id}/decline`)).status()).toBe(200);
    await dora.close();

    await page.goto(`${server.url}/loops/${loopId}`);
    const row = (name: string) => page.getByRole('listitem').filter({ hasText: name });
    await waitVisible(row('Penny Waiting').getByText('Pending', { exact: true }));
    await waitVisible(row('Penny Waiting').getByText(/^Invited .*: waiting for them to reply YES\.$/));
    // Invited a moment ago: a resend waits a day; the row says until when, with no button it could not press.
    const resend = row('Penny Waiting').getByText(/^Invitation sent\. You can resend it after .+\.$/);
    await waitVisible(resend);
    expect(
      await row('Penny Waiting')
        .getByRole('button', { name: /Resend invitation/ })
        .count(),
    ).toBe(0);
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

    await waitVisible(row('Nora Quiet').getByText('Not invited', { exact: true }));
    await waitVisible(row('Nora Quiet').getByText('Not invited: this phone has opted out of texts; they can text START and then YES.'));
    await waitVisible(row('Dora Declined').getByText('Declined', { exact: true }));
    await waitVisible(row('Dora Declined').getByText('Declined the invitation: Loop sends them no more invitations to this Loop.'));
    for (const name of ['Nora Quiet', 'Dora Declined']) {
      expect(
        await row(name)
          .getByRole('button', { name: /Resend invitation/ })
          .count(),
      ).toBe(0);
    }
    expect(await seriousViolations(page)).toEqual([]);

    await screenshot(page, 'members-states-375');
    // The state badges, their sentences and the resend button stay on screen (the tab's own 375 px
    // overflow is not checked here).
    const fits = async () => {
      for (const locator of [
        resend,
        row('Penny Waiting').getByText('Pending', { exact: true }),
        row('Otto Stopped').getByText(/^Texted STOP/),
        row('Nora Quiet').getByText(/^Not invited:/),
        row('Dora Declined').getByText('Declined', { exact: true }),
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

describe('signing up proves the phone, not consent (decision 0035)', () => {
  it('leaves both invitations pending; My Loops accepts one and declines the other, by keyboard, at 375 and 1280 px', async () => {
    const CAROL = { firstName: 'Carol', lastName: 'Jones', phoneNumber: '+14155550182', email: 'carol@example.com' };
    // Alice and Mallory each add Carol's phone to a Loop called "Smith Family".
    const owners: Record<string, { page: Page; loopId: number }> = {};
    for (const [key, person] of [
      ['alice', { firstName: 'Alice', lastName: 'Abbot', phoneNumber: '+14155550180', email: 'alice@example.com' }],
      ['mallory', { firstName: 'Mallory', lastName: 'M', phoneNumber: '+14155550181', email: 'mallory@example.com' }],
    ] as const) {
      const page = await (await browser.newContext()).newPage();
      await registerAccount(page, server.url, person);
      const created = await page.request.post(`${server.url}/api/loops`, { data: { name: 'Smith Family', vibe: ['family'] } });
      const loopId = ((await created.json()) as { id: number }).id;
      expect((await page.request.post(`${server.url}/api/loops/${loopId}/members`, { data: CAROL })).status()).toBe(201);
      owners[key] = { page, loopId };
    }
    const alice = owners.alice!;
    const mallory = owners.mallory!;

    // Carol signs up with her phone: proven, and still in neither Loop.
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, CAROL);
    expect(await (await page.request.get(`${server.url}/api/loops`, RETRY_RESET)).json()).toEqual([]);
    expect(await stateOf(alice.page, alice.loopId, CAROL.phoneNumber)).toBe('pending');
    expect(await stateOf(mallory.page, mallory.loopId, CAROL.phoneNumber)).toBe('pending');

    await page.goto(`${server.url}/`);
    const invitations = page.getByRole('region', { name: 'Invitations' });
    const acceptAlice = invitations.getByRole('button', { name: 'Accept the invitation to Smith Family from Alice Abbot' });
    const declineMallory = invitations.getByRole('button', { name: 'Decline the invitation to Smith Family from Mallory M' });
    await waitVisible(acceptAlice);
    await waitVisible(declineMallory);
    await waitVisible(page.getByText('Create Your First Loop'));
    const fits = async () => {
      for (const locator of [acceptAlice, declineMallory, invitations.getByText(/^Mallory M (\(phone ending \d{4}\) )?invited you/)]) {
        const box = await locator.boundingBox();
        expect(box && box.x >= 0 && box.x + box.width <= (page.viewportSize()?.width ?? 0) + 1).toBe(true);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(page.viewportSize()?.width ?? 0);
    };
    await fits();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'my-loops-invitations-375');
    await page.setViewportSize(DESKTOP);
    await fits();
    await screenshot(page, 'my-loops-invitations-1280');

    // Accept, by keyboard: Alice's Loop joins My Loops; Mallory's invitation still waits.
    await acceptAlice.focus();
    await page.keyboard.press('Enter');
    await waitToast(page, 'Success!');
    await waitVisible(page.getByRole('link', { name: /Smith Family/ }));
    await waitGone(acceptAlice);
    expect(await stateOf(alice.page, alice.loopId, CAROL.phoneNumber)).toBe('active');
    expect(await stateOf(mallory.page, mallory.loopId, CAROL.phoneNumber)).toBe('pending');

    // Decline, by keyboard: the dialog asks first; then Mallory sees it declined.
    await declineMallory.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog', { name: 'Decline the invitation to Smith Family?' });
    await waitVisible(dialog);
    await dialog.getByRole('button', { name: 'Decline', exact: true }).focus();
    await page.keyboard.press('Enter');
    await waitToast(page, 'Invitation declined');
    await waitGone(invitations);
    expect(await stateOf(mallory.page, mallory.loopId, CAROL.phoneNumber)).toBe('declined');
    expect(((await (await page.request.get(`${server.url}/api/loops`, RETRY_RESET)).json()) as { id: number }[]).map((l) => l.id)).toEqual([
      alice.loopId,
    ]);
    expect(errors).toEqual([]);
    await context.close();
    for (const owner of [alice, mallory]) await owner.page.context().close();
  });
});
