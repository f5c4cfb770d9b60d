import { deflateSync } from 'node:zlib';
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

const OWNER = { firstName: 'Nora', lastName: 'Quinn', email: 'nora@example.com', phoneNumber: '+14155550131' };
const MEMBER = { firstName: 'Mia', lastName: 'Chen', phoneNumber: '+14155550132' };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A real PNG: a sunset-coloured gradient, so the thumbnails are worth looking at. */
function gradientPng(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: number[] = [];
  for (let y = 0; y < height; y++) {
    rows.push(0);
    for (let x = 0; x < width; x++) rows.push(250 - (y * 120) / height, 120 + (x * 80) / width, 60 + (y * 150) / height);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.from(rows.map(Math.round)))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

async function loopOf(page: Page, id: number): Promise<LoopDetail> {
  const response = await page.request.get(`${server.url}/api/loops/${id}`, RETRY_RESET);
  expect(response.status()).toBe(200);
  return (await response.json()) as LoopDetail;
}

/** Waits until an <img> has really loaded. */
async function waitImageLoaded(page: Page, name: string): Promise<void> {
  const image = page.getByRole('img', { name, exact: true }).first();
  await waitVisible(image);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
}

describe('the Phone Simulator', () => {
  it('texts an update with a photo as a member, on a phone; it lands in the Loop’s Updates tab', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, OWNER);

    // No members yet: the simulator says what to do first.
    await page.goto(`${server.url}/simulator`);
    await waitVisible(page.getByRole('heading', { name: 'Phone Simulator' }));
    await waitVisible(page.getByRole('heading', { name: 'Create a Loop and add members first' }));
    await screenshot(page, 'simulator-no-members-375');

    const created = await page.request.post(`${server.url}/api/loops`, {
      data: { name: 'Sunday Hikers', vibe: ['friends', 'fun'], timeZone: 'America/Los_Angeles' },
    });
    expect(created.status()).toBe(201);
    const loopId = ((await created.json()) as { id: number }).id;
    const added = await page.request.post(`${server.url}/api/loops/${loopId}/members`, { data: MEMBER });
    expect(added.status()).toBe(201);

    // The empty Updates tab points to the simulator.
    await page.goto(`${server.url}/loops/${loopId}`);
    await page.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(page.getByText('No updates yet.', { exact: true }));
    await screenshot(page, 'simulator-updates-empty-375');
    await page.getByRole('link', { name: 'text as a member in the Phone Simulator' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/simulator');

    // The member list: both people of the Loop, with it.
    const memberLink = page.getByRole('link', { name: /Mia Chen/ });
    await waitVisible(memberLink);
    await waitVisible(page.getByRole('link', { name: /Nora Quinn/ }));
    await waitVisible(page.getByText('Things to try'));
    await screenshot(page, 'simulator-members-375');

    // Mia's phone: full screen, with the invitation Loop sent when she was added.
    await memberLink.click();
    await waitVisible(page.getByText('Simulated phone — nothing is really sent'));
    await waitVisible(page.getByRole('heading', { name: 'Mia Chen' }));
    const thread = page.getByRole('log', { name: 'Texts with Mia' });
    await waitVisible(thread.getByText(/invited you to "Sunday Hikers" \(.*Reply YES to join, HELP for help, STOP to opt out\./));
    // The page's heading stays for screen readers only (axe: a level-one heading on phones).
    const heading = page.getByRole('heading', { name: 'Phone Simulator', level: 1 });
    expect(await heading.evaluate((el) => (el.parentElement ?? el).getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    // She says yes; only then do her texts reach the Loop.
    await page.getByRole('textbox', { name: 'Text from Mia' }).fill('YES');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await waitVisible(thread.getByText(/^Loop: you're in "Sunday Hikers" \(/), 20_000);

    // A file that is not a photo is refused with a reason; a photo gets a preview.
    const fileInput = page.locator('input[type="file"]');
    await fileInput.setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') });
    await waitVisible(page.getByRole('alert').getByText(/“notes.txt” is not a photo/));
    await fileInput.setInputFiles([
      { name: 'blurry.png', mimeType: 'image/png', buffer: gradientPng(40, 40) },
      { name: 'summit.png', mimeType: 'image/png', buffer: gradientPng(160, 120) },
    ]);
    await waitVisible(page.getByRole('img', { name: 'Photo 2 to send' }));
    await waitGone(page.getByText(/is not a photo/));
    await page.getByRole('button', { name: 'Remove photo 1' }).click();
    await waitGone(page.getByRole('img', { name: 'Photo 2 to send' }));
    await waitVisible(page.getByRole('img', { name: 'Photo 1 to send' }));
    const compose = page.getByRole('textbox', { name: 'Text from Mia' });
    await compose.fill('Made it to the summit!');
    await compose.press('Shift+Enter');
    await compose.pressSequentially('Views all the way to the coast.');
    expect(await compose.inputValue()).toBe('Made it to the summit!\nViews all the way to the coast.');
    await screenshot(page, 'simulator-compose-375');

    // Enter sends: the text shows at once, Loop's confirmation follows.
    await compose.press('Enter');
    await waitVisible(thread.getByText(/Made it to the summit!/));
    await waitVisible(thread.getByText('Thanks Mia! Your update and photo went to "Sunday Hikers".'), 20_000);
    expect(await compose.inputValue()).toBe('');
    expect(await page.getByRole('img', { name: 'Photo 1 to send' }).count()).toBe(0);
    await waitImageLoaded(page, 'Photo 1 from Mia');
    await screenshot(page, 'simulator-thread-375');

    // The photo opens large.
    await thread.getByRole('button', { name: 'Photo 1 from Mia' }).click();
    const photoDialog = page.getByRole('dialog', { name: 'Photo 1 from Mia' });
    await waitVisible(photoDialog);
    await page.keyboard.press('Escape');
    await waitGone(photoDialog);

    // Back goes to the list; the update is in the Loop's Updates tab, with its photo.
    await page.getByRole('link', { name: 'All members' }).click();
    await waitVisible(page.getByRole('heading', { name: 'Phone Simulator' }));
    expect((await loopOf(page, loopId)).updates).toHaveLength(1);
    await page.goto(`${server.url}/loops/${loopId}`);
    await page.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(page.getByText(/Made it to the summit!\s+Views all the way to the coast\./));
    await waitImageLoaded(page, 'Photo 1 from Mia Chen');
    await screenshot(page, 'simulator-update-in-loop-375');

    await context.close();
    expect(errors).toEqual([]);
  });

  it('shows the member list beside the phone at 1280 px, from the account menu; HELP gets an answer', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Omar',
      lastName: 'Reyes',
      email: 'omar@example.com',
      phoneNumber: '+14155550141',
    });
    const lena = { firstName: 'Lena', lastName: 'Reyes', phoneNumber: '+14155550142' };
    for (const name of ['Reyes Family', 'Book Club']) {
      const created = await page.request.post(`${server.url}/api/loops`, { data: { name, vibe: ['family'], timeZone: 'Europe/Madrid' } });
      expect(created.status()).toBe(201);
      const { id } = (await created.json()) as { id: number };
      expect((await page.request.post(`${server.url}/api/loops/${id}/members`, { data: lena })).status()).toBe(201);
    }
    // Lena says yes to each invitation from her phone, naming its Loop (a YES joins one Loop,
    // decision 0033), then shares.
    for (const name of ['Reyes Family', 'Book Club']) {
      const yes = await page.request.post(`${server.url}/api/simulator/phones/${encodeURIComponent(lena.phoneNumber)}/messages`, {
        data: { body: `${name}: YES` },
      });
      expect(yes.status(), await yes.text()).toBe(202);
    }
    const sent = await page.request.post(
      `${server.url}/api/simulator/phones/${encodeURIComponent(lena.phoneNumber)}/messages`,
      simulatorFiles('Book Club: Finished the novel on the train. That ending!', [
        { contentType: 'image/png', bytes: gradientPng(120, 160), name: 'page.png' },
      ]),
    );
    expect(sent.status(), await sent.text()).toBe(202);

    await page.goto(server.url);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Phone Simulator' }).click();
    await expect.poll(() => new URL(page.url()).pathname).toBe('/simulator');
    await waitVisible(page.getByText('Pick a member'));
    await page.mouse.click(10, 790);
    await screenshot(page, 'simulator-pick-1280');

    // A phone with no texts at all (rare: Loop welcomes every new member) suggests what to send.
    const omarThread = `${server.url}/api/simulator/phones/${encodeURIComponent('+14155550141')}/messages`;
    await page.route(omarThread, async (route) => {
      const real = (await (await route.fetch()).json()) as { phone: unknown };
      await route.fulfill({ json: { phone: real.phone, messages: [] } });
    });
    await page.getByRole('link', { name: /Omar Reyes/ }).click();
    await waitVisible(page.getByText('No texts yet'));
    await waitVisible(page.getByText(/Omar is in 2 Loops/));
    expect(await page.getByRole('link', { name: /Lena Reyes/ }).isVisible()).toBe(true);
    await screenshot(page, 'simulator-empty-thread-1280');
    await page.unroute(omarThread);

    // Omar's welcome texts come in; until he texts, suggestions stay above the box. HELP gets an answer.
    const thread = page.getByRole('log', { name: 'Texts with Omar' });
    await waitVisible(thread.getByText(/^Welcome to "Book Club" on Loop!/));
    await page.getByRole('button', { name: 'HELP', exact: true }).click();
    expect(await page.getByRole('textbox', { name: 'Text from Omar' }).inputValue()).toBe('HELP');
    await screenshot(page, 'simulator-suggestions-1280');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // On SMS Twilio answers HELP itself (TWILIO_KEYWORD_REPLIES=twilio), with the text the operator
    // set there (README): the simulator plays it, as its HELP tip says (brand, where to get help, STOP).
    await waitVisible(thread.getByText(/^Loop: group news by text\..*STOP to opt out.*Help: /), 20_000);
    await waitGone(page.getByRole('button', { name: 'LOOPS', exact: true }));

    // Lena's phone, from the list: her welcome texts, her update to one Loop and Loop's answer.
    await page.getByRole('link', { name: /Lena Reyes/ }).click();
    const lenaThread = page.getByRole('log', { name: 'Texts with Lena' });
    await waitVisible(lenaThread.getByText('Thanks Lena! Your update and photo went to "Book Club".'), 20_000);
    await waitImageLoaded(page, 'Photo 1 from Lena');
    await screenshot(page, 'simulator-thread-1280');

    // STOP and START are the phone's, across every Loop: from a member's phone they are refused and
    // the toast says why (decision 0031).
    const lenaBox = page.getByRole('textbox', { name: 'Text from Lena' });
    await lenaBox.fill('STOP');
    await lenaBox.press('Enter');
    await waitToast(page, /The Phone Simulator takes STOP and START only from your own phone/);
    // The refusal's 400 is the answer this step expects, not a page error.
    const refused = errors.findIndex((error) => /status of 400/.test(error));
    expect(refused).toBeGreaterThanOrEqual(0);
    errors.splice(refused, 1);
    await screenshot(page, 'simulator-played-stop-1280');
    await dismissToasts(page);

    // From his own phone STOP opts it out, visibly; START opts it back in. Twilio answers both on
    // SMS (the simulator plays Twilio: https://help.twilio.com/articles/223134027).
    await page.getByRole('link', { name: /Omar Reyes/ }).click();
    const omarBox = page.getByRole('textbox', { name: 'Text from Omar' });
    await omarBox.fill('STOP');
    await omarBox.press('Enter');
    await waitVisible(page.getByText('This phone texted STOP', { exact: false }), 20_000);
    await waitVisible(page.getByRole('link', { name: /Omar Reyes/ }).getByText('Opted out'), 20_000);
    await screenshot(page, 'simulator-opted-out-1280');
    await omarBox.fill('START');
    await omarBox.press('Enter');
    await waitVisible(thread.getByText(/^You have successfully been re-subscribed to messages from this number\./), 20_000);
    await waitGone(page.getByText('This phone texted STOP', { exact: false }), 20_000);

    // With real texts on (Twilio), a member who is not staff is told why the simulator is closed.
    await page.route('**/api/config', (route) => route.fulfill({ json: { messagingProvider: 'twilio' } }));
    await page.goto(`${server.url}/simulator`);
    await waitVisible(page.getByRole('heading', { name: 'The Phone Simulator is off' }));
    await screenshot(page, 'simulator-off-1280');
    await page.getByRole('button', { name: 'Account menu' }).click();
    await waitVisible(page.getByRole('menuitem', { name: 'Profile' }));
    expect(await page.getByRole('menuitem', { name: 'Phone Simulator' }).count()).toBe(0);

    await context.close();
    expect(errors).toEqual([]);
  });
});
