import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { DESKTOP, launchBrowser, PHONE, RETRY_RESET } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo';

let demo: DemoServer;
let browser: Browser;
let familyId: number;
let inviteUrl: string;
let newsletterUrl: string;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemoServer(), launchBrowser()]);
  const context = await browser.newContext();
  const { url } = demo.server;
  await context.request.post(`${url}/api/login`, { data: demo.account });
  const loops = (await (await context.request.get(`${url}/api/loops`, RETRY_RESET)).json()) as { id: number; name: string }[];
  familyId = loops.find((l) => l.name === 'The Rivera Family')?.id ?? 0;
  inviteUrl = ((await (await context.request.post(`${url}/api/loops/${familyId}/invite`, { data: {} })).json()) as { inviteUrl: string })
    .inviteUrl;
  newsletterUrl = ((await (await context.request.get(`${url}/api/config`, RETRY_RESET)).json()) as { links: { exampleNewsletter: string } })
    .links.exampleNewsletter;
  // A paused Loop: its dimmed row in All Loops must still read (3.15:1 and 2.2:1).
  const other = loops.find((l) => l.id !== familyId)?.id ?? 0;
  await context.request.post(`${url}/api/admin/loops/${other}/toggle-pause`, { data: {} });
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

async function signedIn(viewport: typeof PHONE): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport });
  const login = await context.request.post(`${demo.server.url}/api/login`, { data: demo.account });
  if (!login.ok()) throw new Error(`login failed: ${login.status()}`);
  return context;
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])('axe-core on a %s: no serious or critical violation', (_name, viewport) => {
  it('on the landing page, with an FAQ answer open, and the guide', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(demo.server.url);
    await waitVisible(page.getByRole('heading', { name: 'Frequently asked questions' }));
    await page.getByRole('button', { name: 'How much does Loop cost?' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${demo.server.url}/guide`);
    await waitVisible(page.getByRole('heading', { name: 'Enjoy the newsletter' }));
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on /auth, in Login and in Sign Up', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/auth`);
    await waitVisible(page.getByRole('heading', { name: 'Welcome back' }));
    // With the form's own error messages showing.
    await page.getByRole('button', { name: 'Login', exact: true }).click();
    await waitVisible(page.getByText('Email is required'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await waitVisible(page.getByLabel('First Name'));
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on the join page', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}${inviteUrl}`);
    await waitVisible(page.getByText('Enter your details to join the loop'));
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on the dashboard and the Loop detail tabs', async () => {
    const context = await signedIn(viewport);
    const page = await context.newPage();
    await page.goto(demo.server.url);
    await waitVisible(page.getByRole('heading', { name: 'My Loops' }));
    await waitVisible(page.getByText('The Rivera Family'));
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${demo.server.url}/loops/${familyId}`);
    await waitVisible(page.getByRole('tab', { name: 'Members' }));
    await waitVisible(page.getByText('Carmen Ortiz'));
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Updates' }).click();
    await waitVisible(page.getByRole('heading', { name: 'Recent Updates' }));
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await waitVisible(page.getByText('Reminder Schedule'));
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on the admin dashboard, with a paused Loop and a newsletter open', async () => {
    const context = await signedIn(viewport);
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/admin`);
    await waitVisible(page.getByRole('button', { name: /^Resume / }));
    await page
      .getByRole('button', { name: /View Content/ })
      .first()
      .click();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on the admin Loop page (members as cards on a phone, delivery in simulator mode)', async () => {
    const context = await signedIn(viewport);
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/admin/loops/${familyId}`);
    await waitVisible(page.getByText('Past Newsletters'));
    await waitVisible(page.getByText('Carmen Ortiz').filter({ visible: true }));
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on the Phone Simulator with a phone open, which keeps its level-one heading', async () => {
    const context = await signedIn(viewport);
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/simulator`);
    const { phones } = (await (await context.request.get(`${demo.server.url}/api/simulator/phones`)).json()) as {
      phones: { phoneNumber: string }[];
    };
    await page.goto(`${demo.server.url}/simulator?phone=${encodeURIComponent(phones[0]?.phoneNumber ?? '')}`);
    await waitVisible(page.getByRole('region', { name: 'Simulated phone' }).getByRole('heading', { level: 2 }));
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on Sign Up with a refused password under its field, and the country list open', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/auth`);
    await page.getByRole('button', { name: "Don't have an account? Sign up" }).click();
    await page.getByLabel('First Name').fill('Cara');
    await page.getByLabel('Last Name').fill('Jones');
    await page.getByLabel('Email').fill(`cara.${viewport.width}@example.com`);
    await page.getByLabel('Password').fill('12345678');
    await page.getByLabel('Phone Number').fill('415 555 0178');
    await page.getByRole('button', { name: 'Sign Up', exact: true }).click();
    await waitVisible(page.locator('form').getByText(/one of the most common passwords/));
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: /^Country: / }).click();
    await waitVisible(page.getByRole('listbox', { name: 'Countries' }));
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('on the public newsletter page', async () => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    const response = await page.goto(`${demo.server.url}${newsletterUrl}`);
    expect(response?.status()).toBe(200);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
