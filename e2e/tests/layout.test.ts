import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitVisible } from '../support/app';
import { DESKTOP, launchBrowser, PHONE, screenshot } from '../support/browser';
import { startDemoServer, type DemoServer } from '../support/demo';
import { addMember } from '../support/loop-data';

// Every route at 375 px and 1280 px, as a demanding person sees it: the page is never wider
// than the screen, and no button is cut off, by the screen, by a box that hides its overflow,
// or by its own width ("Ac…"). Tables may scroll sideways on a phone (the rest of the row is
// reached by scrolling); on a desktop no table needs to.

let demo: DemoServer;
let browser: Browser;
let familyId: number;
let inviteUrl: string;
let newsletterUrl: string;
let draftPath: string;
let simulatedPhone: string;

beforeAll(async () => {
  [demo, browser] = await Promise.all([startDemoServer(), launchBrowser()]);
  const context = await browser.newContext();
  const { url } = demo.server;
  const request = context.request;
  await request.post(`${url}/api/login`, { data: demo.account });
  const loops = (await (await request.get(`${url}/api/loops`)).json()) as { id: number; name: string }[];
  familyId = loops.find((l) => l.name === 'The Rivera Family')?.id ?? 0;
  const other = loops.find((l) => l.id !== familyId)?.id ?? 0;
  // An ordinary long email and a long context: the row that made the Members tab 478 px wide.
  await addMember(request, url, familyId, {
    firstName: 'Margaret',
    lastName: 'Walker-Fitzgerald',
    phoneNumber: '+447911123456',
    email: 'gran.walker@example.com',
    context: 'Grandmother, keeps the family recipe book and tells the best stories',
  });
  // A paused Loop: its row is dimmed in the admin table.
  await request.post(`${url}/api/admin/loops/${other}/toggle-pause`, { data: {} });
  inviteUrl = ((await (await request.post(`${url}/api/loops/${familyId}/invite`, { data: {} })).json()) as { inviteUrl: string }).inviteUrl;
  newsletterUrl = ((await (await request.get(`${url}/api/config`)).json()) as { links: { exampleNewsletter: string } }).links
    .exampleNewsletter;
  const generated = (await (await request.post(`${url}/api/loops/${familyId}/newsletters/generate`, { data: {} })).json()) as {
    newsletter: { id: number };
  };
  draftPath = `/admin/loops/${familyId}/newsletters/${generated.newsletter.id}`;
  const { phones } = (await (await request.get(`${url}/api/simulator/phones`)).json()) as { phones: { phoneNumber: string }[] };
  simulatedPhone = phones[0]?.phoneNumber ?? '';
  await context.close();
});
afterAll(async () => {
  await browser?.close();
  await demo?.stop();
});

/** What is wrong with the page's width and its buttons, readable in a failure. */
async function layoutProblems(page: Page, viewport: typeof PHONE): Promise<string[]> {
  return page.evaluate((desktop) => {
    const problems: string[] = [];
    const width = window.innerWidth;
    const pageWidth = document.documentElement.scrollWidth;
    if (pageWidth > width) problems.push(`the page is ${pageWidth} px wide on a ${width} px screen`);
    const name = (el: Element) =>
      (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40) || el.outerHTML.slice(0, 60);
    const buttons = Array.from(document.querySelectorAll<HTMLElement>('button, [role="tab"], a[data-slot="button"], [role="button"]'));
    for (const button of buttons) {
      const box = button.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(button);
      if (style.visibility === 'hidden' || button.closest('.sr-only, [aria-hidden="true"]')) continue;
      if (box.left < -1 || box.right > width + 1)
        problems.push(`"${name(button)}" is cut by the screen (${Math.round(box.left)}..${Math.round(box.right)})`);
      if (button.scrollWidth > button.clientWidth + 1)
        problems.push(`"${name(button)}" is too narrow for its label (${button.scrollWidth} > ${button.clientWidth})`);
      for (let parent = button.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
        const overflow = getComputedStyle(parent).overflowX;
        if (overflow === 'visible') continue;
        const scrolls = (overflow === 'auto' || overflow === 'scroll') && parent.scrollWidth > parent.clientWidth + 1;
        if (scrolls) {
          if (desktop) problems.push(`"${name(button)}" needs sideways scrolling at ${width} px`);
          break;
        }
        const clip = parent.getBoundingClientRect();
        if (box.left < clip.left - 1 || box.right > clip.right + 1) {
          problems.push(`"${name(button)}" is cut by its container (${Math.round(box.right)} > ${Math.round(clip.right)})`);
          break;
        }
      }
    }
    return [...new Set(problems)];
  }, viewport.width > 1000);
}

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;
let session: StorageState | undefined;

/** A context with the staff session: one login for the whole file (logins are rate-limited per account). */
async function signedIn(viewport: typeof PHONE): Promise<BrowserContext> {
  if (!session) {
    const login = await browser.newContext();
    const answer = await login.request.post(`${demo.server.url}/api/login`, { data: demo.account });
    if (!answer.ok()) throw new Error(`login failed: ${answer.status()}`);
    session = await login.storageState();
    await login.close();
  }
  return browser.newContext({ viewport, reducedMotion: 'reduce', storageState: session });
}

interface Screen {
  name: string;
  path: () => string;
  signedIn: boolean;
  /** Waits until the screen shows what it is about, and opens what should be checked open. */
  ready: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  {
    name: 'landing',
    path: () => '/',
    signedIn: false,
    ready: (p) => waitVisible(p.getByRole('heading', { name: 'Frequently asked questions' })),
  },
  { name: 'auth', path: () => '/auth', signedIn: false, ready: (p) => waitVisible(p.getByRole('heading', { name: 'Welcome back' })) },
  { name: 'join', path: () => inviteUrl, signedIn: false, ready: (p) => waitVisible(p.getByText('Enter your details to join the loop')) },
  {
    name: 'guide',
    path: () => '/guide',
    signedIn: false,
    ready: (p) => waitVisible(p.getByRole('heading', { name: 'Enjoy the newsletter' })),
  },
  { name: 'not-found', path: () => '/no-such-page', signedIn: false, ready: (p) => waitVisible(p.getByRole('heading').first()) },
  { name: 'newsletter', path: () => newsletterUrl, signedIn: false, ready: (p) => waitVisible(p.locator('h1').first()) },
  { name: 'dashboard', path: () => '/', signedIn: true, ready: (p) => waitVisible(p.getByText('The Rivera Family')) },
  {
    name: 'loop-members',
    path: () => `/loops/${familyId}`,
    signedIn: true,
    ready: (p) => waitVisible(p.getByText('gran.walker@example.com')),
  },
  {
    name: 'loop-updates',
    path: () => `/loops/${familyId}`,
    signedIn: true,
    ready: async (p) => {
      await p.getByRole('tab', { name: 'Updates' }).click();
      await waitVisible(p.getByRole('heading', { name: 'Recent Updates' }));
    },
  },
  {
    name: 'loop-settings',
    path: () => `/loops/${familyId}`,
    signedIn: true,
    ready: async (p) => {
      await p.getByRole('tab', { name: 'Settings' }).click();
      await waitVisible(p.getByText('Reminder Schedule'));
    },
  },
  { name: 'profile', path: () => '/profile', signedIn: true, ready: (p) => waitVisible(p.getByText('Messaging Preference')) },
  { name: 'simulator', path: () => '/simulator', signedIn: true, ready: (p) => waitVisible(p.getByRole('heading').first()) },
  {
    name: 'simulator-phone',
    path: () => `/simulator?phone=${encodeURIComponent(simulatedPhone)}`,
    signedIn: true,
    ready: (p) => waitVisible(p.getByRole('region', { name: 'Simulated phone' }).getByRole('heading', { level: 2 })),
  },
  {
    name: 'sign-up-refused-password',
    path: () => '/auth',
    signedIn: false,
    ready: async (p) => {
      await p.getByRole('button', { name: "Don't have an account? Sign up" }).click();
      await p.getByLabel('First Name').fill('Cara');
      await p.getByLabel('Last Name').fill('Jones');
      await p.getByLabel('Email').fill('cara.layout@example.com');
      await p.getByLabel('Password').fill('12345678');
      await p.getByLabel('Phone Number').fill('415 555 0177');
      await p.getByRole('button', { name: 'Sign Up', exact: true }).click();
      await waitVisible(p.locator('form').getByText(/one of the most common passwords/));
    },
  },
  {
    name: 'country-picker',
    path: () => inviteUrl,
    signedIn: false,
    ready: async (p) => {
      await p.getByRole('button', { name: /^Country: / }).click();
      await waitVisible(p.getByRole('listbox', { name: 'Countries' }));
    },
  },
  {
    name: 'admin',
    path: () => '/admin',
    signedIn: true,
    ready: async (p) => {
      await waitVisible(p.getByRole('heading', { name: 'All Loops' }));
      await waitVisible(p.getByRole('button', { name: /View Content/ }));
      await p
        .getByRole('button', { name: /View Content/ })
        .first()
        .click();
    },
  },
  {
    name: 'admin-loop',
    path: () => `/admin/loops/${familyId}`,
    signedIn: true,
    ready: (p) => waitVisible(p.getByText('Past Newsletters')),
  },
  {
    name: 'editor',
    path: () => draftPath,
    signedIn: true,
    ready: (p) => waitVisible(p.getByRole('heading', { name: 'Edit Newsletter Draft' })),
  },
];

describe.each([
  ['375 px', PHONE],
  ['1280 px', DESKTOP],
])('at %s', (label, viewport) => {
  it.each(SCREENS)('$name is no wider than the screen and cuts off no button', async (screen) => {
    const context = screen.signedIn ? await signedIn(viewport) : await browser.newContext({ viewport, reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}${screen.path()}`);
    await screen.ready(page);
    await page.waitForTimeout(200);
    const problems = await layoutProblems(page, viewport);
    // LAYOUT_SHOTS=1 keeps every screen in e2e/artifacts to look at; a failing one is always kept.
    if (problems.length > 0 || process.env.LAYOUT_SHOTS) await screenshot(page, `layout-${screen.name}-${label.replace(' ', '')}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});

// A newcomer's walk through the screens: the rows a width check alone does not see.
describe("the newcomer's screens", () => {
  it('the top bar keeps its column on the admin dashboard, as on My Loops, at 1280 px', async () => {
    const context = await signedIn(DESKTOP);
    const page = await context.newPage();
    // The bar has one width on every screen, so it never jumps between them (the dashboard's
    // tables are wider than the bar; they scroll inside their cards).
    const barEdges = () =>
      page.evaluate(() => {
        const box = document.querySelector('header > div')?.getBoundingClientRect();
        return [Math.round(box?.left ?? NaN), Math.round(box?.right ?? NaN)];
      });
    await page.goto(`${demo.server.url}/`);
    await waitVisible(page.getByRole('heading', { name: 'My Loops' }));
    const onMyLoops = await barEdges();
    await page.goto(`${demo.server.url}/admin`);
    await waitVisible(page.getByRole('heading', { name: 'All Loops' }));
    expect(await barEdges()).toEqual(onMyLoops);
    await screenshot(page, 'admin-aligned-1280');
    await context.close();
  });

  it('admin Loop members are cards on a phone, every field in view; a table on a desktop', async () => {
    for (const viewport of [PHONE, DESKTOP]) {
      const context = await signedIn(viewport);
      const page = await context.newPage();
      await page.goto(`${demo.server.url}/admin/loops/${familyId}`);
      const card = page.getByRole('heading', { name: /^Members \(/ }).locator('xpath=../..');
      // The cards and the table are both in the page; CSS shows one of them.
      await waitVisible(card.getByText('Margaret Walker-Fitzgerald').filter({ visible: true }));
      const phone = card.getByRole('link', { name: '+44 7911 123456' }).filter({ visible: true });
      await waitVisible(phone);
      const box = await phone.boundingBox();
      expect(box && box.x >= 0 && box.x + box.width <= viewport.width).toBe(true);
      await waitVisible(card.getByText(/keeps the family recipe book/).filter({ visible: true }));
      expect(await card.getByRole('table').isVisible()).toBe(viewport === DESKTOP);
      await context.close();
    }
  });

  it('the Phone Simulator keeps a level-one heading with a phone open on a phone', async () => {
    const context = await signedIn(PHONE);
    const page = await context.newPage();
    await page.goto(`${demo.server.url}/simulator?phone=${encodeURIComponent(simulatedPhone)}`);
    await waitVisible(page.getByRole('region', { name: 'Simulated phone' }).getByRole('heading', { level: 2 }));
    expect(await page.getByRole('heading', { level: 1, name: 'Phone Simulator' }).count()).toBe(1);
    await context.close();
  });

  it('the country picker shows country codes, never flag emoji (boxes without an emoji font)', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${demo.server.url}${inviteUrl}`);
    await page.getByRole('button', { name: /^Country: United States/ }).click();
    await waitVisible(page.getByRole('option', { name: /United Kingdom/ }));
    expect(await page.getByRole('option', { name: /United Kingdom/ }).textContent()).toMatch(/^GBUnited Kingdom\+44$/);
    expect(await page.evaluate(() => /\p{Regional_Indicator}/u.test(document.body.innerText))).toBe(false);
    await context.close();
  });
});
