import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { LoopDetail } from '@loop/shared/loops';
import { dismissToasts, registerAccount, waitGone, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';
import { simulatorFiles } from '../support/loop-data';

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]));

const OWNER = { firstName: 'Ava', lastName: 'Parker', email: 'ava@example.com', phoneNumber: '+14155550101' };

async function loopOf(page: Page, id: number): Promise<LoopDetail> {
  const response = await page.request.get(`${server.url}/api/loops/${id}`, RETRY_RESET);
  expect(response.status()).toBe(200);
  return (await response.json()) as LoopDetail;
}

function loopIdOf(page: Page): number {
  const match = /\/loops\/(\d+)$/.exec(new URL(page.url()).pathname);
  if (!match) throw new Error(`not on a Loop page: ${page.url()}`);
  return Number(match[1]);
}

describe('a Loop from creation to deletion, on a phone', () => {
  it('creates, manages members, reminders and settings, invites, deletes an update and the Loop', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, OWNER);

    // Dashboard: the empty state.
    await page.goto(server.url);
    await waitVisible(page.getByRole('heading', { name: 'Create Your First Loop' }));
    await waitVisible(page.getByText('Share updates via SMS'));
    await screenshot(page, 'dashboard-empty-375');

    // Create Loop: the vibe error first, then success.
    await page.getByRole('button', { name: 'Create Loop' }).click();
    const createDialog = page.getByRole('dialog', { name: 'Create Loop' });
    await waitVisible(createDialog.getByLabel('Loop Name'));
    await createDialog.getByLabel('Loop Name').fill('The Parkers');
    await createDialog.getByRole('button', { name: 'Create Loop' }).click();
    await waitVisible(createDialog.getByText('Please select at least one newsletter vibe', { exact: true }));
    await screenshot(page, 'create-loop-error-375');
    await createDialog.getByRole('checkbox', { name: 'Family', exact: true }).click();
    await createDialog.getByRole('checkbox', { name: 'Fun', exact: true }).click();
    await waitGone(createDialog.getByText('Please select at least one newsletter vibe'));
    expect(await createDialog.getByPlaceholder('What brings your group together?').count()).toBe(1);
    await createDialog.getByLabel('Group Context').fill('Cousins spread over three countries.');
    await createDialog.getByRole('button', { name: 'Create Loop' }).click();
    // The Phone Simulator is not "disabled" texts: the toast says where texts go.
    await waitToast(page, 'Loop created successfully!');
    await waitToast(
      page,
      /^The first newsletter goes out .* Texts to members show up in the Phone Simulator: nothing leaves this computer\.$/,
    );
    await waitGone(createDialog);
    // The dialog said "add members next": the new Loop opens, and the toast links the Phone Simulator.
    await waitVisible(page.getByRole('heading', { name: 'The Parkers', level: 1 }));
    await waitVisible(page.getByRole('tab', { name: 'Members', selected: true }));
    await expect.poll(() => new URL(page.url()).pathname).toMatch(/^\/loops\/\d+$/);
    await waitVisible(page.getByRole('region', { name: /Notifications/ }).getByRole('link', { name: 'Phone Simulator' }));
    await screenshot(page, 'loop-created-375');
    await dismissToasts(page);
    await page.goto(server.url);
    await waitVisible(page.getByRole('link', { name: /The Parkers/ }));
    await waitVisible(page.getByText('Cousins spread over three countries.'));
    await screenshot(page, 'dashboard-375');

    // Loop detail: Members is the first and default tab; the creator is the first member.
    await page.getByRole('link', { name: /The Parkers/ }).click();
    await waitVisible(page.getByRole('heading', { name: 'The Parkers' }));
    const loopId = loopIdOf(page);
    await waitVisible(page.getByText(/^Created on /));
    expect(await page.getByRole('tab', { name: 'Members' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('tab').allTextContents()).toEqual(['Members', 'Updates', 'Newsletter', 'Settings']);
    await waitVisible(page.getByText('Ava Parker'));
    expect(await page.getByRole('button', { name: 'Remove Ava Parker' }).count()).toBe(0);

    // Add a member, then remove them.
    await page.getByRole('button', { name: 'Add Member' }).click();
    const addDialog = page.getByRole('dialog', { name: 'Add Member' });
    await waitVisible(addDialog.getByLabel('First Name'));
    await addDialog.getByLabel('First Name').fill('Ben');
    await addDialog.getByLabel('Last Name').fill('Parker');
    await addDialog.getByLabel('Email (Optional)').fill('ben@example.com');
    await addDialog.getByLabel('Phone Number').fill('415 555 0190');
    await addDialog.getByLabel('Context (Optional)').fill('Little brother, in Lisbon');
    await screenshot(page, 'add-member-375');
    await addDialog.getByRole('button', { name: 'Add Member' }).click();
    await waitToast(page, 'Member added successfully!');
    await waitGone(addDialog);
    await waitVisible(page.getByText('Little brother, in Lisbon'));
    await waitVisible(page.getByText('ben@example.com'));
    await dismissToasts(page);
    await screenshot(page, 'loop-members-375');

    await page.getByRole('button', { name: 'Remove Ben Parker' }).click();
    const confirmRemove = page.getByRole('alertdialog');
    await waitVisible(confirmRemove.getByText('Remove Ben Parker?'));
    await screenshot(page, 'remove-member-confirm-375');
    await confirmRemove.getByRole('button', { name: 'Remove' }).click();
    await waitToast(page, 'Member removed successfully');
    await waitGone(page.getByText('Little brother, in Lisbon'));
    expect((await loopOf(page, loopId)).members).toHaveLength(1);

    // Settings: reminder days and a time, saved at once.
    await page.getByRole('tab', { name: 'Settings' }).click();
    // The frequency once, as its selector (no read-only line beside it).
    expect(await page.getByLabel('Newsletter Frequency').inputValue()).toBe('biweekly');
    expect(await page.getByText('Newsletter Frequency').count()).toBe(1);
    expect(await page.getByRole('checkbox', { name: 'Thursday' }).getAttribute('aria-checked')).toBe('true');
    expect(await page.getByLabel('Sunday reminder time').inputValue()).toBe('17:00');
    expect(await page.getByLabel('Sunday reminder time').locator('option').count()).toBe(288);

    await page.getByRole('checkbox', { name: 'Monday' }).click();
    await waitToast(page, 'Reminder schedule updated successfully!');
    expect(await page.getByLabel('Monday reminder time').inputValue()).toBe('09:00');
    await page.getByLabel('Monday reminder time').selectOption('07:30');
    await waitToast(page, 'Reminder time updated successfully!');
    await page.getByRole('checkbox', { name: 'Thursday' }).click();
    await waitToast(page, 'Reminder schedule updated successfully!');
    await expect
      .poll(async () => (await loopOf(page, loopId)).reminderSchedule)
      .toEqual([
        { day: 'monday', time: '07:30' },
        { day: 'sunday', time: '17:00' },
      ]);

    // The time zone the browser sent; the owner can change it.
    expect(await page.getByLabel('Time Zone').inputValue()).toBe((await loopOf(page, loopId)).timeZone);
    await page.getByLabel('Time Zone').selectOption('Europe/Lisbon');
    await waitToast(page, 'Loop settings updated successfully!');
    await expect.poll(async () => (await loopOf(page, loopId)).timeZone).toBe('Europe/Lisbon');

    // Edit Settings: Cancel puts the saved values back; Save Changes saves.
    await page.getByRole('button', { name: 'Edit Settings' }).click();
    await page.getByLabel('Group Context').fill('Something else entirely');
    await page.getByRole('checkbox', { name: 'Fun', exact: true }).click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await waitVisible(page.getByText('Cousins spread over three countries.'));
    await page.getByRole('button', { name: 'Edit Settings' }).click();
    expect(await page.getByRole('checkbox', { name: 'Fun', exact: true }).getAttribute('aria-checked')).toBe('true');
    await page.getByLabel('Group Context').fill('');
    await page.getByRole('checkbox', { name: 'Deep' }).click();
    await screenshot(page, 'loop-settings-edit-375');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await waitToast(page, 'Loop settings updated successfully!');
    await waitVisible(page.getByText('No context provided', { exact: true }));
    expect((await loopOf(page, loopId)).vibe).toEqual(['family', 'fun', 'deep']);
    await dismissToasts(page);
    await screenshot(page, 'loop-settings-375');

    // Generate Invite Link: copied (or at least ready), shown in the dialog.
    await page.getByRole('button', { name: 'Generate Invite Link' }).click();
    const inviteDialog = page.getByRole('dialog', { name: 'Invite people to The Parkers' });
    await waitVisible(inviteDialog.getByRole('textbox', { name: 'Invite link' }));
    await waitToast(page, /^(Link copied to clipboard!|Link is ready to share!)$/);
    await waitVisible(inviteDialog.getByText(/Anyone with this link can join/));
    await waitVisible(inviteDialog.getByText(/^This link expires on /));
    const inviteUrl = await inviteDialog.getByRole('textbox', { name: 'Invite link' }).inputValue();
    expect(inviteUrl).toMatch(new RegExp(`^${server.url}/join/[A-Za-z0-9_-]{16,}$`));
    await inviteDialog.getByRole('button', { name: 'Copy Link' }).click();
    await waitVisible(inviteDialog.getByRole('button', { name: /^(Copied!|Link Selected)$/ }));
    await dismissToasts(page);
    await screenshot(page, 'invite-dialog-375');
    await page.keyboard.press('Escape');
    await waitGone(inviteDialog);

    // Someone else joins with the link, in their own browser.
    const guestContext = await browser.newContext({ viewport: PHONE });
    const guest = await guestContext.newPage();
    const guestErrors = collectPageErrors(guest);
    await guest.goto(inviteUrl);
    await waitVisible(guest.getByText('Enter your details to join the loop'));
    await waitVisible(guest.getByRole('heading', { name: 'The Parkers' }));
    await guest.getByLabel('First Name').fill('Cara');
    await guest.getByLabel('Last Name').fill('Jones');
    await guest.getByLabel('Phone Number').fill('415 555 0160');
    await guest.getByText('WhatsApp', { exact: true }).click();
    await screenshot(guest, 'join-375');
    await guest.getByRole('button', { name: 'Join Loop' }).click();
    // What happens next, not the marketing page, and no "Success!" toast
    // saying the opposite while the YES is still to come.
    await waitVisible(guest.getByRole('heading', { name: 'Check your phone' }));
    expect(await guest.getByText("You've successfully joined the loop!").count()).toBe(0);
    await waitVisible(guest.getByText(/Reply YES/));
    expect(await guest.getByRole('link', { name: 'Get Started for Free!' }).count()).toBe(0);
    await screenshot(guest, 'joined-375');
    await guestContext.close();
    expect(guestErrors).toEqual([]);

    await page.getByRole('tab', { name: 'Members' }).click();
    await page.reload();
    await waitVisible(page.getByText('Cara Jones'));

    // An update, texted in through the Phone Simulator, then deleted.
    const photo = await page.screenshot({ clip: { x: 0, y: 0, width: 300, height: 200 } });
    const sent = await page.request.post(
      `${server.url}/api/simulator/phones/${encodeURIComponent(OWNER.phoneNumber)}/messages`,
      simulatorFiles('Hello from the lake! We caught three fish.', [{ contentType: 'image/png', bytes: photo, name: 'lake.png' }]),
    );
    expect(sent.status(), await sent.text()).toBe(202);
    await expect.poll(async () => (await loopOf(page, loopId)).updates.length, { timeout: 20_000 }).toBe(1);

    await page.reload();
    await page.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(page.getByRole('heading', { name: 'Recent Updates' }));
    await waitVisible(page.getByText('Hello from the lake! We caught three fish.'));
    const thumbnail = page.getByRole('img', { name: 'Photo 1 from Ava Parker' });
    await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await screenshot(page, 'loop-updates-375');
    await thumbnail.click();
    const photoDialog = page.getByRole('dialog', { name: 'Photo 1 from Ava Parker' });
    await waitVisible(photoDialog);
    await screenshot(page, 'photo-375');
    await page.keyboard.press('Escape');
    await waitGone(photoDialog);

    // A photo that fails to load shows a placeholder icon.
    await page.route('**/media/**', (route) => route.fulfill({ status: 404, body: '' }));
    await page.reload();
    await page.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(page.getByRole('img', { name: 'Photo 1 from Ava Parker could not be loaded' }));
    await page.unroute('**/media/**');
    await screenshot(page, 'loop-updates-broken-photo-375');

    await page.getByRole('button', { name: 'Delete update from Ava Parker' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await waitToast(page, 'Update deleted successfully');
    await waitVisible(page.getByText('No updates yet.', { exact: true }));
    expect((await loopOf(page, loopId)).updates).toEqual([]);

    // Delete the Loop: confirmed, then back to "/".
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Delete Loop' }).click();
    const confirmDelete = page.getByRole('alertdialog', { name: 'Delete The Parkers?' });
    await waitVisible(confirmDelete);
    await screenshot(page, 'delete-loop-confirm-375');
    await confirmDelete.getByRole('button', { name: 'Delete Loop' }).click();
    await waitToast(page, 'Loop deleted successfully');
    await expect.poll(() => new URL(page.url()).pathname).toBe('/');
    await waitVisible(page.getByRole('heading', { name: 'Create Your First Loop' }));
    expect((await page.request.get(`${server.url}/api/loops/${loopId}`, RETRY_RESET)).status()).toBe(404);

    await context.close();
    // The one failed load is the photo made to fail above.
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    expect(errors.filter((e) => /status of 404/.test(e))).toHaveLength(1);
  });
});

describe('Loop screens on a desktop, and what a member sees', () => {
  it('shows the dashboard, the tabs and the dialogs at 1280 px; a member gets no owner actions', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Dee',
      lastName: 'Okafor',
      email: 'dee@example.com',
      phoneNumber: '+14155550150',
    });
    await page.goto(server.url);
    await waitVisible(page.getByRole('heading', { name: 'Create Your First Loop' }));
    await screenshot(page, 'dashboard-empty-1280');

    const created: number[] = [];
    for (const [name, context] of [
      ['Book Club', 'Monthly reads and strong opinions.'],
      ['Team Sunshine', null],
      ['The Okafors', 'Family news from Lagos, London and Toronto, with plenty of photos of the new baby.'],
    ] as const) {
      const response = await page.request.post(`${server.url}/api/loops`, {
        data: { name, context, vibe: ['friends', 'casual'], timeZone: 'Europe/London' },
      });
      expect(response.status()).toBe(201);
      created.push(((await response.json()) as { id: number }).id);
    }
    const [bookClubId, , familyId] = created as [number, number, number];
    await page.reload();
    await waitVisible(page.getByRole('link', { name: /The Okafors/ }));
    await screenshot(page, 'dashboard-1280');
    await page.getByRole('button', { name: 'Create Loop' }).click();
    await waitVisible(page.getByRole('dialog', { name: 'Create Loop' }).getByLabel('Loop Name'));
    await screenshot(page, 'create-loop-1280');
    await page.keyboard.press('Escape');

    // A member who has an account: the owner adds them by phone number.
    const member = await browser.newContext({ viewport: DESKTOP });
    const memberPage = await member.newPage();
    const memberErrors = collectPageErrors(memberPage);
    const { id: memberUserId } = await registerAccount(memberPage, server.url, {
      firstName: 'Eli',
      lastName: 'Okafor',
      email: 'eli@example.com',
      phoneNumber: '+14155550151',
    });
    const added = await page.request.post(`${server.url}/api/loops/${familyId}/members`, {
      data: { firstName: 'Eli', lastName: 'Okafor', phoneNumber: '+14155550151', context: 'Big brother' },
    });
    expect(added.status()).toBe(201);
    const duplicate = await page.request.post(`${server.url}/api/loops/${familyId}/members`, {
      data: { firstName: 'Eli', lastName: 'Okafor', phoneNumber: '+14155550151' },
    });
    expect(duplicate.status()).toBe(409);
    // Eli says yes to the invitation from his own phone (pending until YES).
    const yes = await memberPage.request.post(`${server.url}/api/simulator/phones/%2B14155550151/messages`, { data: { body: 'YES' } });
    expect(yes.status(), await yes.text()).toBe(202);

    await page.goto(`${server.url}/loops/${familyId}`);
    await waitVisible(page.getByText('Big brother'));
    await screenshot(page, 'loop-members-1280');
    await page.getByRole('button', { name: 'Add Member' }).click();
    await waitVisible(page.getByRole('dialog', { name: 'Add Member' }));
    await screenshot(page, 'add-member-1280');
    await page.keyboard.press('Escape');
    await page.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(page.getByText('No updates yet.', { exact: true }));
    await screenshot(page, 'loop-updates-empty-1280');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await waitVisible(page.getByRole('heading', { name: 'Reminder Schedule' }));
    await screenshot(page, 'loop-settings-1280');
    await page.getByRole('button', { name: 'Generate Invite Link' }).click();
    await waitVisible(page.getByRole('dialog', { name: /^Invite people/ }));
    await dismissToasts(page);
    await screenshot(page, 'invite-dialog-1280');
    await page.keyboard.press('Escape');

    // The member's view: their own update can go, nothing of the owner's.
    const sent = await memberPage.request.post(`${server.url}/api/simulator/phones/%2B14155550151/messages`, {
      data: { body: 'Landed in Toronto, snow everywhere.' },
    });
    expect(sent.status(), await sent.text()).toBe(202);
    await expect.poll(async () => (await loopOf(memberPage, familyId)).updates.length, { timeout: 20_000 }).toBe(1);
    expect((await loopOf(memberPage, familyId)).updates[0]?.userId).toBe(memberUserId);
    await memberPage.goto(`${server.url}/loops/${familyId}`);
    await waitVisible(memberPage.getByRole('heading', { name: 'The Okafors' }));
    expect(await memberPage.getByRole('button', { name: 'Generate Invite Link' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: 'Add Member' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: /^Remove/ }).count()).toBe(0);
    await memberPage.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(memberPage.getByRole('button', { name: 'Delete update from Eli Okafor' }));
    await screenshot(memberPage, 'loop-updates-member-1280');
    await memberPage.getByRole('tab', { name: 'Settings' }).click();
    await waitVisible(memberPage.getByText("Times are in each member's own time zone (Europe / London when Loop doesn't know theirs)."));
    expect(await memberPage.getByRole('button', { name: 'Edit Settings' }).count()).toBe(0);
    expect(await memberPage.getByRole('button', { name: 'Delete Loop' }).count()).toBe(0);
    expect(await memberPage.getByRole('checkbox').count()).toBe(0);
    await screenshot(memberPage, 'loop-settings-member-1280');

    // A Loop that is not theirs, and an invite link that does not work.
    await memberPage.goto(`${server.url}/loops/${bookClubId}`);
    await waitVisible(memberPage.getByRole('heading', { name: 'Loop not found' }));
    await screenshot(memberPage, 'loop-not-found-1280');
    await member.close();
    expect(memberErrors.filter((e) => !/status of 404/.test(e))).toEqual([]);

    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto(`${server.url}/join/AAAAAAAAAAAAAAAAAAAAAA`);
      await waitVisible(page.getByRole('heading', { name: 'This invite link doesn’t work' }));
      await screenshot(page, `join-invalid-${viewport.width}`);
    }
    await context.close();
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});
