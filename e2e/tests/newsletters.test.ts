import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoopSummary } from '@loop/shared/loops';
import type { NewsletterPreview } from '@loop/shared/newsletters';
import { dismissToasts, registerAccount, toasts, waitGone, waitToast, waitVisible } from '../support/app';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import { addMember, createLoop, textFromPhone, waitForText, waitForUpdates } from '../support/loop-data';
import { startServer, type RunningServer } from '../support/server';

let server: RunningServer;
let browser: Browser;
let staff: BrowserContext;
let parkers: LoopSummary;
let mischief: LoopSummary;

const OWNER = { firstName: 'Ava', lastName: 'Parker', email: 'ava@example.com', phoneNumber: '+14155550101' };
const STAFF = { firstName: 'Sam', lastName: 'Staff', email: 'staff@example.com', phoneNumber: '+14155550100' };
const BEN = { firstName: 'Ben', lastName: 'Parker', phoneNumber: '+14155550102' };
const CLEO = { firstName: 'Cleo', lastName: 'Parker', phoneNumber: '+14155550103' };
const MALLORY = { firstName: 'Mallory', lastName: 'Hax', phoneNumber: '+14155550120' };

const XSS_CORPUS = [
  '<script>alert(1)</script> hello from a script tag',
  '<img src=x onerror=alert(1)> an image that errors',
  '[click me](javascript:alert(1)) a javascript link',
  '![x](x" onerror="alert(1)) a broken image attribute',
  '<a href="javascript:alert(1)">an html link</a>',
  '<svg onload=alert(1)> an svg',
  '&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x onerror=alert(1)&#62; &amp; entities',
];

beforeAll(async () => {
  [server, browser] = await Promise.all([startServer({ ADMIN_EMAILS: STAFF.email }), launchBrowser()]);

  const owner = await browser.newContext();
  await registerAccount(await owner.newPage(), server.url, OWNER);
  parkers = await createLoop(owner.request, server.url, { name: 'The Parkers', vibe: ['family'], context: 'Cousins in three countries' });
  await addMember(owner.request, server.url, parkers.id, BEN);
  await addMember(owner.request, server.url, parkers.id, CLEO);
  mischief = await createLoop(owner.request, server.url, { name: 'Mischief Makers', vibe: ['fun'] });
  await addMember(owner.request, server.url, mischief.id, MALLORY);
  await owner.close();

  staff = await browser.newContext({ viewport: DESKTOP });
  await registerAccount(await staff.newPage(), server.url, STAFF);

  // Members text their news in; the worker turns each text into an update.
  await textFromPhone(staff.request, server.url, BEN.phoneNumber, 'Caught a huge trout at the lake this weekend!');
  await textFromPhone(staff.request, server.url, CLEO.phoneNumber, 'Started my new job at the bakery. Free croissants!');
  for (const payload of XSS_CORPUS) await textFromPhone(staff.request, server.url, MALLORY.phoneNumber, payload);
  await Promise.all([
    waitForUpdates(staff.request, server.url, parkers.id, 2),
    waitForUpdates(staff.request, server.url, mischief.id, XSS_CORPUS.length),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

function editorPath(loopId: number): RegExp {
  return new RegExp(`^/admin/loops/${loopId}/newsletters/(\\d+)$`);
}

async function openAdminLoop(page: Page, loop: LoopSummary): Promise<void> {
  await page.goto(`${server.url}/admin/loops/${loop.id}`);
  await waitVisible(page.getByRole('heading', { name: loop.name, level: 1 }));
}

/** Clicks "Generate Newsletter" and waits for the editor of the new draft; answers its id. */
async function generateFromLoopPage(page: Page, loop: LoopSummary): Promise<number> {
  await page.getByRole('button', { name: 'Generate Newsletter' }).click();
  await expect.poll(() => editorPath(loop.id).test(new URL(page.url()).pathname), { timeout: 15_000 }).toBe(true);
  await waitToast(page, 'Newsletter Generated');
  await waitToast(page, 'The newsletter has been generated and saved as a draft.');
  await waitVisible(page.getByRole('heading', { name: 'Edit Newsletter Draft', level: 1 }));
  return Number(editorPath(loop.id).exec(new URL(page.url()).pathname)?.[1]);
}

async function sendFromEditor(page: Page, loop: LoopSummary): Promise<void> {
  await page.getByRole('button', { name: 'Send to Members' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Send this newsletter?' });
  await confirm.getByRole('button', { name: 'Send to Members' }).click();
  await waitToast(page, 'Newsletter sent');
  await waitToast(page, 'The newsletter has been sent to all loop members.');
  await expect.poll(() => new URL(page.url()).pathname).toBe(`/admin/loops/${loop.id}`);
}

describe('a newsletter from draft to the members phones', () => {
  it('sends a sneak peek, then generates, edits, saves, previews and sends a newsletter', async () => {
    const page = await staff.newPage();
    const errors = collectPageErrors(page);
    await openAdminLoop(page, parkers);
    await waitVisible(page.getByRole('heading', { name: 'Updates (2)' }));
    await waitVisible(page.getByText('Caught a huge trout at the lake this weekend!'));

    // Sneak peek: the exact text, to whom and its cost first; texted when confirmed (decision 0042).
    await page.getByRole('button', { name: 'Send Sneak Peek...' }).click();
    const peekDialog = page.getByRole('dialog', { name: 'Send a sneak peek?' });
    await waitVisible(peekDialog.getByTestId('text-cost'));
    expect(await peekDialog.getByTestId('text-preview').textContent()).toMatch(/^Sneak peek from "The Parkers": 2 updates from /);
    expect(await peekDialog.getByTestId('text-cost').textContent()).toMatch(
      /^3 people will get it: \d text segments? each, \d+ texts in all\.$/,
    );
    await screenshot(page, 'sneak-peek-confirm-1280');
    await peekDialog.getByRole('button', { name: 'Send to 3 people' }).click();
    await waitToast(page, 'Sneak Peek Generated');
    await waitToast(page, 'The sneak peek has been generated and sent to all members.');
    await waitVisible(page.getByRole('heading', { name: 'Past Newsletters (1)' }));
    await waitVisible(page.getByRole('link', { name: 'View Newsletter' }));
    const peek = await waitForText(staff.request, server.url, BEN.phoneNumber, (m) => m.kind === 'sneak_peek');
    expect(peek.body).toContain(`${server.url}/newsletters/`);
    await dismissToasts(page);

    // An answer without a newsletter id is refused.
    await page.route('**/api/loops/*/newsletters/generate', (route) => route.fulfill({ status: 201, json: { ok: true } }), { times: 1 });
    await page.getByRole('button', { name: 'Generate Newsletter' }).click();
    await waitToast(page, 'Invalid response format from server');
    expect(new URL(page.url()).pathname).toBe(`/admin/loops/${parkers.id}`);
    await dismissToasts(page);

    // Generate: a draft, and straight to its editor.
    const newsletterId = await generateFromLoopPage(page, parkers);
    const editor = page.getByRole('textbox', { name: 'Newsletter content' });
    await waitVisible(editor);
    await expect.poll(() => editor.textContent(), { timeout: 10_000 }).toContain('Caught a huge trout at the lake this weekend!');
    expect((await editor.boundingBox())?.height).toBeGreaterThanOrEqual(380);
    await waitVisible(page.getByText('Make changes to the newsletter before sending it to loop members', { exact: true }));
    await dismissToasts(page);
    await screenshot(page, 'newsletter-editor-1280');

    // Edit: the draft saves itself.
    const note = 'A note from the editor: see you all in June!';
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type(note);
    await waitVisible(page.getByRole('status').getByText('Saved', { exact: true }));
    const saved = (await (
      await staff.request.get(`${server.url}/api/loops/${parkers.id}/newsletters/${newsletterId}/preview`, RETRY_RESET)
    ).json()) as NewsletterPreview;
    expect(saved.content).toContain(note);
    expect(saved.status).toBe('draft');

    // The saved page: the public page in a new tab, marked as a draft for staff.
    const [preview] = await Promise.all([staff.waitForEvent('page'), page.getByRole('link', { name: 'Open Saved Page' }).click()]);
    await preview.waitForLoadState();
    expect(new URL(preview.url()).pathname).toBe(`/newsletters/${saved.urlId}`);
    await waitVisible(preview.getByText('Draft preview.'));
    await waitVisible(preview.getByText(note));
    await screenshot(preview, 'newsletter-draft-preview-1280');
    await preview.close();

    // Send to Members, after a confirmation; back to the Loop.
    await dismissToasts(page);
    await sendFromEditor(page, parkers);
    await waitVisible(page.getByRole('heading', { name: 'Past Newsletters (2)' }));
    await expect.poll(() => page.getByRole('link', { name: 'View Newsletter' }).count()).toBe(2);
    expect(await page.getByRole('link', { name: 'Edit Draft' }).count()).toBe(0);
    await dismissToasts(page);
    await screenshot(page, 'admin-loop-newsletters-1280');

    // Every member's phone gets the link, and the link opens the page for anyone.
    const link = `${server.url}/newsletters/${saved.urlId}`;
    for (const phone of [OWNER.phoneNumber, BEN.phoneNumber, CLEO.phoneNumber]) {
      const text = await waitForText(staff.request, server.url, phone, (m) => m.kind === 'newsletter');
      expect(text.body).toContain(link);
    }
    const text = await waitForText(staff.request, server.url, BEN.phoneNumber, (m) => m.kind === 'newsletter');
    const url = /https?:\/\/\S+/.exec(text.body)?.[0];
    expect(url).toBe(link);
    for (const viewport of [PHONE, DESKTOP]) {
      const reader = await browser.newContext({ viewport });
      const readerPage = await reader.newPage();
      const readerErrors = collectPageErrors(readerPage);
      const response = await readerPage.goto(url as string);
      expect(response?.status()).toBe(200);
      await waitVisible(readerPage.getByText(note));
      await waitVisible(readerPage.getByText('Started my new job at the bakery. Free croissants!'));
      expect(await readerPage.getByText('Draft preview.').count()).toBe(0);
      await screenshot(readerPage, `newsletter-public-${viewport.width}`);
      await reader.close();
      expect(readerErrors).toEqual([]);
    }

    // Nothing new to write about: the server's reason in the error toast.
    await page.getByRole('button', { name: 'Generate Newsletter' }).click();
    await waitVisible(toasts(page).getByText(/^There are no new updates since the last newsletter/));
    expect(new URL(page.url()).pathname).toBe(`/admin/loops/${parkers.id}`);
    await dismissToasts(page);

    // A sent newsletter opens read-only, with a link to it.
    await page.goto(`${server.url}/admin/loops/${parkers.id}/newsletters/${newsletterId}`);
    await waitVisible(page.getByText(/was sent on .* and can no longer be edited\./));
    expect(await page.getByRole('textbox', { name: 'Newsletter content' }).getAttribute('contenteditable')).toBe('false');
    expect(await page.getByRole('button', { name: 'Save Changes' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'View Newsletter' }).getAttribute('href')).toBe(`/newsletters/${saved.urlId}`);

    // The dashboard lists both; View Content opens one row at a time.
    await page.goto(`${server.url}/admin`);
    await waitVisible(page.getByRole('heading', { name: 'Recent Newsletters' }));
    const viewButtons = page.getByRole('button', { name: 'View Content' });
    await expect.poll(() => viewButtons.count()).toBe(2);
    expect(
      await page
        .getByRole('link', { name: /Open link/ })
        .first()
        .getAttribute('target'),
    ).toBe('_blank');
    // The content is the page the server draws (as the editor's preview), in a frame of its own.
    const content = page.frameLocator('iframe[title="Newsletter content"]');
    await viewButtons.nth(0).click();
    await waitVisible(content.getByText(note, { exact: false }));
    expect(await viewButtons.nth(0).getAttribute('aria-expanded')).toBe('true');
    await viewButtons.nth(1).click();
    expect(await viewButtons.nth(0).getAttribute('aria-expanded')).toBe('false');
    expect(await viewButtons.nth(1).getAttribute('aria-expanded')).toBe('true');
    await waitGone(content.getByText(note, { exact: false }));
    await screenshot(page, 'admin-dashboard-newsletters-1280');
    await viewButtons.nth(1).click();
    expect(await viewButtons.nth(1).getAttribute('aria-expanded')).toBe('false');

    await page.close();
    expect(errors.filter((e) => !/status of 409/.test(e))).toEqual([]);
  });

  it('shows the editor on a phone, and the error card for a newsletter that does not exist', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    await context.addCookies(await staff.cookies());
    const page = await context.newPage();
    const errors = collectPageErrors(page);

    await openAdminLoop(page, parkers);
    await textFromPhone(staff.request, server.url, CLEO.phoneNumber, 'The croissants are even better on day two.');
    await waitForUpdates(staff.request, server.url, parkers.id, 3);
    await generateFromLoopPage(page, parkers);
    await dismissToasts(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'newsletter-editor-375');

    await page.goto(`${server.url}/admin`);
    await expect.poll(() => page.getByRole('button', { name: 'View Content' }).count()).toBeGreaterThanOrEqual(3);
    await page.getByRole('button', { name: 'View Content' }).first().click();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, 'admin-dashboard-newsletters-375');
    await openAdminLoop(page, parkers);
    // The draft just generated is listed apart from the sent ones.
    await waitVisible(page.getByRole('heading', { name: 'Drafts (1)' }));
    await waitVisible(page.getByRole('heading', { name: 'Past Newsletters (2)' }));
    await screenshot(page, 'admin-loop-newsletters-375');

    await page.goto(`${server.url}/admin/loops/${parkers.id}/newsletters/999999`);
    await waitVisible(page.getByRole('heading', { name: 'Failed to load newsletter' }));
    await screenshot(page, 'newsletter-editor-error-375');
    await context.close();
    expect(errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
  });
});

describe('member text full of HTML and script', () => {
  it('never runs: not on the admin pages, not on the public page', async () => {
    const page = await staff.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const errors = collectPageErrors(page);

    // The admin Loop page shows the texts as text.
    await openAdminLoop(page, mischief);
    await waitVisible(page.getByRole('heading', { name: `Updates (${XSS_CORPUS.length})` }));
    await waitVisible(page.getByText(XSS_CORPUS[0] as string, { exact: true }));

    const newsletterId = await generateFromLoopPage(page, mischief);
    const editor = page.getByRole('textbox', { name: 'Newsletter content' });
    await waitVisible(editor);
    await expect.poll(() => editor.textContent(), { timeout: 10_000 }).toContain('alert(1)');
    // An editor's own edit is no more trusted than a member's text.
    await editor.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('<iframe src="javascript:alert(2)"></iframe> <div onclick="alert(3)">click</div> [x](JaVaScRiPt:alert(4))');
    await waitVisible(page.getByRole('status').getByText('Saved', { exact: true }));
    await dismissToasts(page);

    // The staff draft preview.
    const [preview] = await Promise.all([staff.waitForEvent('page'), page.getByRole('link', { name: 'Open Saved Page' }).click()]);
    preview.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    await preview.waitForLoadState('load');
    await waitVisible(preview.getByText('Draft preview.'));
    await preview.close();

    await sendFromEditor(page, mischief);
    const sentText = await waitForText(staff.request, server.url, MALLORY.phoneNumber, (m) => m.kind === 'newsletter');
    const url = /https?:\/\/\S+/.exec(sentText.body)?.[0] as string;

    // The public page in a signed-out browser.
    const reader = await browser.newContext({ viewport: DESKTOP });
    const readerPage = await reader.newPage();
    readerPage.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    const readerErrors = collectPageErrors(readerPage);
    await readerPage.goto(url);
    await readerPage.waitForLoadState('load');
    await waitVisible(readerPage.getByText(/hello from a script tag/));
    // Let anything that would run (image errors, svg load) have its chance.
    await readerPage.waitForTimeout(1000);
    const dom = await readerPage.evaluate(() => {
      const content = document.querySelector('main') ?? document.body;
      const all = Array.from(content.querySelectorAll('*'));
      return {
        handlers: all.flatMap((el) =>
          Array.from(el.attributes)
            .filter((a) => /^on/i.test(a.name))
            .map((a) => `${el.tagName} ${a.name}`),
        ),
        scripts: Array.from(document.querySelectorAll('script')).filter((s) => /alert/.test(s.textContent ?? '')).length,
        jsLinks: all.filter((el) => /^\s*javascript:/i.test(el.getAttribute('href') ?? el.getAttribute('src') ?? '')).length,
        dangerous: content.querySelectorAll('script, iframe, svg, object, embed').length,
        text: content.textContent ?? '',
      };
    });
    await screenshot(readerPage, 'newsletter-xss-1280');
    await reader.close();

    expect(dialogs).toEqual([]);
    expect(dom.handlers).toEqual([]);
    expect(dom.scripts).toBe(0);
    expect(dom.jsLinks).toBe(0);
    expect(dom.dangerous).toBe(0);
    expect(dom.text).toContain('a javascript link');
    expect(readerErrors).toEqual([]);

    // The dashboard's View Content shows the members' words as text.
    await page.goto(`${server.url}/admin`);
    await waitVisible(page.getByRole('heading', { name: 'Recent Newsletters' }));
    await page.getByRole('button', { name: 'View Content' }).first().click();
    // The page the server draws, in a frame that runs no script (decision 0062).
    await waitVisible(
      page
        .frameLocator('iframe[title="Newsletter content"]')
        .getByText(/onerror=alert\(1\)/)
        .first(),
    );
    await page.waitForTimeout(500);
    expect(dialogs).toEqual([]);
    expect(newsletterId).toBeGreaterThan(0);

    await page.close();
    expect(errors).toEqual([]);
  });
});
