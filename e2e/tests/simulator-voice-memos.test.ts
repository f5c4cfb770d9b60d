import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { GenerateNewsletterAnswer, NewsletterPreview } from '@loop/shared/newsletters';
import { registerAccount, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, launchBrowser, PHONE, RETRY_RESET, screenshot } from '../support/browser';
import { createLoop } from '../support/loop-data';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// Decision 0023: the Phone Simulator attaches real voice memos and videos, which go through the same
// media pipeline as a Twilio MMS (MediaUrl/MediaContentType, https://www.twilio.com/docs/messaging/guides/webhook-request),
// and records a voice memo with MediaRecorder. Chromium's fake microphone (a beep) stands in for
// a real one: --use-fake-device-for-media-stream gives the device, --use-fake-ui-for-media-stream
// answers the permission prompt.

const FAKE_MICROPHONE = ['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream'];

let server: RunningServer;
let browser: Browser;

withServerAndBrowser((s, b) => ([server, browser] = [s, b]), { ADMIN_EMAILS: 'ana@example.com' });

/** A 3-second WhatsApp-style voice note (Opus in Ogg), made by Debian's ffmpeg from lavfi's sine (never a shell). */
function oggMemo(): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-e2e-memo-'));
  try {
    const out = path.join(dir, 'memo.ogg');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'sine=frequency=440:duration=3',
      '-c:a',
      'libopus',
      '-b:a',
      '24k',
      out,
    ]);
    return readFileSync(out);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function openOwnPhone(page: Page) {
  await page.goto(`${server.url}/simulator`);
  await page.getByRole('link', { name: /Ana Silva/ }).click();
  const thread = page.getByRole('log', { name: 'Texts with Ana' });
  await waitVisible(thread);
  return thread;
}

describe('voice memos in the Phone Simulator', () => {
  it('an attached audio file becomes an update whose voice memo plays on the newsletter page; no microphone is said clearly', async () => {
    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    const errors = collectPageErrors(page);
    await registerAccount(page, server.url, { firstName: 'Ana', lastName: 'Silva', email: 'ana@example.com', phoneNumber: '+14155550221' });
    const loop = await createLoop(page.request, server.url, { name: 'Silva Family', vibe: ['family'] });
    const thread = await openOwnPhone(page);

    // This browser has no microphone: recording says so and offers the file instead.
    await page.getByRole('button', { name: 'Record voice memo' }).click();
    await waitVisible(page.getByRole('alert').getByText(/microphone.*attach an audio file instead\.$/i));

    await page.locator('input[type="file"]').setInputFiles({ name: 'memo.ogg', mimeType: 'audio/ogg', buffer: oggMemo() });
    await waitVisible(page.getByRole('button', { name: 'Remove voice memo 1' }));
    await waitVisible(page.getByText('memo.ogg'));
    expect(await page.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'simulator-voice-memo-attached-375');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    const compose = page.getByRole('textbox', { name: 'Text from Ana' });
    await compose.fill('Listen to the garden birds');
    await compose.press('Enter');
    await waitVisible(thread.getByText(/^Thanks Ana! Your update and voice memo went to "Silva Family"\./), 30_000);
    await waitVisible(thread.getByRole('list', { name: 'Also sent' }).getByText('Voice memo'));

    // The update carries the converted clip: the newsletter page has a player for it.
    const generated = (await (
      await page.request.post(`${server.url}/api/loops/${loop.id}/newsletters/generate`)
    ).json()) as GenerateNewsletterAnswer;
    const preview = (await (
      await page.request.get(`${server.url}/api/loops/${loop.id}/newsletters/${generated.newsletter.id}/preview`, RETRY_RESET)
    ).json()) as NewsletterPreview;
    await page.goto(`${server.url}/newsletters/${preview.urlId}`);
    const audio = page.locator('audio');
    await waitVisible(audio);
    const src = await audio.evaluate((el: HTMLAudioElement) => el.currentSrc || el.querySelector('source')?.src || el.src);
    const file = await page.request.get(src, RETRY_RESET);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('audio/mp4');
    // And it plays: Chromium's clock moves on (muted, as autoplay rules allow).
    await audio.evaluate(async (el: HTMLAudioElement) => {
      el.muted = true;
      await el.play();
    });
    await expect.poll(() => audio.evaluate((el: HTMLAudioElement) => el.currentTime), { timeout: 10_000 }).toBeGreaterThan(0.2);
    await context.close();
    expect(errors).toEqual([]);
  });

  it('records a voice memo with the microphone, by keyboard, and sends it', async () => {
    const recorderBrowser = await launchBrowser(FAKE_MICROPHONE);
    try {
      for (const viewport of [PHONE, DESKTOP]) {
        const context = await recorderBrowser.newContext({ viewport });
        // The session of Ana (staff) from the first test lives in the other browser: sign in here.
        const page = await context.newPage();
        const errors = collectPageErrors(page);
        const login = await page.request.post(`${server.url}/api/login`, {
          data: { email: 'ana@example.com', password: 'a long enough password' },
        });
        expect(login.ok()).toBe(true);
        const thread = await openOwnPhone(page);

        const record = page.getByRole('button', { name: 'Record voice memo' });
        await record.focus();
        await page.keyboard.press('Enter');
        const stop = page.getByRole('button', { name: 'Stop recording' });
        await waitVisible(stop);
        await waitVisible(page.getByRole('timer').getByText(/^Recording 0:0[1-9]$/), 10_000);
        await screenshot(page, `simulator-recording-${viewport.width}`);
        expect(await seriousViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
        // The whole row fits the phone: Send is not pushed out by the recording bar.
        const [form, sendBox] = await Promise.all([
          page.locator('form').last().boundingBox(),
          page.getByRole('button', { name: 'Send', exact: true }).boundingBox(),
        ]);
        expect(form && sendBox && sendBox.x + sendBox.width <= form.x + form.width).toBe(true);
        // Focus stayed on the same button, now Stop.
        expect(await stop.evaluate((el) => el === document.activeElement)).toBe(true);
        await page.keyboard.press('Enter');
        await waitVisible(page.getByRole('button', { name: 'Remove voice memo 1' }));
        // Screen readers hear it (a polite live region).
        await expect.poll(() => page.getByText(/^Voice memo of 0:0\d attached\.$/).count()).toBe(1);
        await screenshot(page, `simulator-recorded-${viewport.width}`);
        expect(await seriousViolations(page)).toEqual([]);

        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await expect
          .poll(async () => thread.getByText(/^Thanks Ana! Your update and voice memo went to "Silva Family"\./).count(), {
            timeout: 30_000,
          })
          .toBe(viewport === PHONE ? 2 : 3);
        await context.close();
        expect(errors).toEqual([]);
      }
    } finally {
      await recorderBrowser.close();
    }
  });
});
