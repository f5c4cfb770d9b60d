import type { Browser, FrameLocator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GenerateNewsletterAnswer, NewsletterPreview } from '@loop/shared/newsletters';
import { m4aMemo } from '../../apps/server/test/helpers/clips';
import { phoneJpeg } from '../../apps/server/test/helpers/photos';
import { registerAccount, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import { addMember, createLoop, simulatorFiles, textFromPhone, waitForUpdates } from '../support/loop-data';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// The visual newsletter editor (decision 0041). A member texts a photo and a voice memo (the real
// inbound pipeline converts the memo), another texts news; staff generate the draft and edit it:
// move the voice memo, caption it, reorder a section by keyboard, watch the live preview follow,
// let it save on its own, reload and find it all kept. At 1280 px and 375 px, axe clean.

let server: RunningServer;
let browser: Browser;
withServerAndBrowser((s, b) => ([server, browser] = [s, b]), { ADMIN_EMAILS: 'rosa@example.com' });

const TOMAS = { firstName: 'Tomas', lastName: 'Diaz', phoneNumber: '+14155550182', messagingPreference: 'sms' as const };
const INES = { firstName: 'Ines', lastName: 'Diaz', phoneNumber: '+14155550183', messagingPreference: 'sms' as const };

/** The section headings as the live preview (the public page's own HTML) shows them. */
const previewHeadings = (preview: FrameLocator) => preview.locator('main h2').allTextContents();

/** What the editor is showing, top to bottom: section headings and pictures by kind. */
function editorOutline(page: Page): Promise<string[]> {
  return page
    .getByRole('textbox', { name: 'Newsletter content' })
    .evaluate((editor) =>
      [...editor.querySelectorAll(':scope > h2, .rich-media')].map(
        (n) => (n.tagName === 'H2' ? n.textContent : (n as HTMLElement).dataset.kind) ?? '',
      ),
    );
}

async function noOverflow(page: Page, width: number): Promise<void> {
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

describe('the visual newsletter editor', () => {
  it('edits a newsletter with a photo and a voice memo at 1280 and 375 px, saving on its own', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, {
      firstName: 'Rosa',
      lastName: 'Diaz',
      email: 'rosa@example.com',
      phoneNumber: '+14155550181',
    });
    const loop = await createLoop(page.request, server.url, { name: 'Diaz Family', vibe: ['family'] });
    await addMember(page.request, server.url, loop.id, TOMAS);
    await addMember(page.request, server.url, loop.id, INES);
    const sent = await page.request.post(
      `${server.url}/api/simulator/phones/${encodeURIComponent(TOMAS.phoneNumber)}/messages`,
      simulatorFiles('At the beach!', [
        { contentType: 'image/jpeg', bytes: await phoneJpeg({ width: 800, height: 600 }), name: 'beach.jpg' },
        { contentType: 'audio/mp4', bytes: m4aMemo(3), name: 'memo.m4a' },
      ]),
    );
    expect(sent.status()).toBe(202);
    await textFromPhone(page.request, server.url, INES.phoneNumber, 'Passed my driving test today!');
    await waitForUpdates(page.request, server.url, loop.id, 2);
    const generated = await page.request.post(`${server.url}/api/loops/${loop.id}/newsletters/generate`, RETRY_RESET);
    expect(generated.status()).toBe(201);
    const { newsletter } = (await generated.json()) as GenerateNewsletterAnswer;

    await page.goto(`${server.url}/admin/loops/${loop.id}/newsletters/${newsletter.id}`);
    const editor = page.getByRole('textbox', { name: 'Newsletter content' });
    await waitVisible(editor);
    const preview = page.frameLocator('iframe[title="Live preview of the newsletter"]');
    await expect.poll(() => previewHeadings(preview)).toEqual(['Tomas Diaz', 'Ines Diaz']);

    // The photo and the voice memo are themselves: a picture and a player, not Markdown.
    const memo = page.getByRole('group', { name: /^Voice memo: Voice memo from Tomas/ });
    await waitVisible(memo.locator('audio[controls]'));
    await waitVisible(page.getByRole('group', { name: /^Photo: Photo from Tomas/ }).getByRole('img'));
    expect(await editor.textContent()).not.toContain('](/media/');
    expect(await editorOutline(page)).toEqual(['Tomas Diaz', 'photo', 'audio', 'Ines Diaz']);

    // Move the voice memo above the photo, and caption it.
    await memo.getByRole('button', { name: /^Move Voice memo from Tomas.* up$/ }).click();
    expect(await editorOutline(page)).toEqual(['Tomas Diaz', 'audio', 'photo', 'Ines Diaz']);
    await memo.getByRole('textbox', { name: /^Caption for Voice memo/ }).fill('Tomas at the beach');

    // Reorder a section by keyboard: Ines first. The live preview follows.
    await page.getByRole('button', { name: 'Move Ines Diaz up' }).focus();
    await page.keyboard.press('Enter');
    await waitVisible(page.getByText('Ines Diaz moved to position 1 of 2.'));
    expect(await editorOutline(page)).toEqual(['Ines Diaz', 'Tomas Diaz', 'audio', 'photo']);
    await expect.poll(() => previewHeadings(preview)).toEqual(['Ines Diaz', 'Tomas Diaz']);
    await expect.poll(() => preview.locator('main audio').count()).toBe(1);
    await expect.poll(() => preview.locator('main .clip-caption').allTextContents()).toEqual(['Tomas at the beach']);

    // Saved on its own.
    await waitVisible(page.getByRole('status').getByText('Saved', { exact: true }));
    const saved = (await (
      await page.request.get(`${server.url}/api/loops/${loop.id}/newsletters/${newsletter.id}/preview`, RETRY_RESET)
    ).json()) as NewsletterPreview;
    expect(saved.content).toMatch(/## Ines Diaz[\s\S]*## Tomas Diaz/);
    expect(saved.content).toMatch(/!\[Voice memo from Tomas, 0:0\d\]\(\/media\/[\w-]+ "Tomas at the beach"\)\n\n!\[Photo from Tomas\]/);
    expect(await seriousViolations(page)).toEqual([]);
    await noOverflow(page, 1280);
    await screenshot(page, 'newsletter-visual-editor-1280');

    // Reload: all of it kept, and nothing asks before leaving.
    await page.reload();
    await waitVisible(editor);
    expect(await editorOutline(page)).toEqual(['Ines Diaz', 'Tomas Diaz', 'audio', 'photo']);
    expect(await page.getByRole('textbox', { name: /^Caption for Voice memo/ }).inputValue()).toBe('Tomas at the beach');

    // At 375 px: the editor fits, and the preview is a toggle away.
    await page.setViewportSize(PHONE);
    await noOverflow(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'newsletter-visual-editor-375');
    await page.getByRole('button', { name: 'Show Preview' }).click();
    await expect.poll(() => previewHeadings(preview)).toEqual(['Ines Diaz', 'Tomas Diaz']);
    await noOverflow(page, 375);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'newsletter-visual-editor-preview-375');
    await page.getByRole('button', { name: 'Back to Editing' }).click();
    await waitVisible(editor);
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
