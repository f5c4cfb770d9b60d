import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { m4aMemo, movVideo } from '../../apps/server/test/helpers/clips';
import { startFakeOpenAi, type FakeOpenAi } from '../../apps/server/test/helpers/fake-openai';
import { registerAccount, waitVisible } from '../support/app';
import { seriousViolations } from '../support/axe';
import { collectPageErrors, DESKTOP, PHONE, screenshot } from '../support/browser';
import { addMember, createLoop, simulatorFiles, waitForUpdates } from '../support/loop-data';
import type { RunningServer } from '../support/server';
import { withServerAndBrowser } from '../support/suite';

// A voice memo texted in (through the Phone Simulator, the real inbound pipeline:
// ffmpeg converts it, the worker has it transcribed) plays on the Loop's Updates tab, with its
// length and its transcript beside the player. Fixtures are made by ffmpeg's lavfi sources here.
// The transcription endpoint is a fake OpenAI-compatible server on 127.0.0.1 answering
// https://platform.openai.com/docs/api-reference/audio/createTranscription's `{ "text": ... }`.

let server: RunningServer;
let browser: Browser;
let openai: FakeOpenAi;
// Rosa is made staff (to read the admin detail while waiting); the endpoint is filled in before
// the server starts (hooks run in the order they are registered).
const env: Record<string, string> = { ADMIN_EMAILS: 'rosa@example.com' };
beforeAll(async () => {
  openai = await startFakeOpenAi();
  openai.transcribe({ kind: 'text', text: 'Hi Grandma! We went to the beach today.' });
  Object.assign(env, { OPENAI_BASE_URL: openai.baseUrl, OPENAI_API_KEY: 'sk-test' });
});
afterAll(async () => {
  await openai?.close();
});
withServerAndBrowser((s, b) => ([server, browser] = [s, b]), env);

/** At 375 and 1280 px: nothing wider than the screen, the player whole on it; a screenshot of each to look at. */
async function atPhoneAndDesktop(page: Page, name: string, player: Locator): Promise<void> {
  for (const [viewport, width] of [
    [PHONE, 375],
    [DESKTOP, 1280],
  ] as const) {
    await page.setViewportSize(viewport);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    const box = await player.boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= width).toBe(true);
    await screenshot(page, `${name}-${width}`);
  }
}

describe('voice memos and videos on the Updates tab', () => {
  it('a texted voice memo plays (press play, the time advances), with its transcript; a video shows its poster', async () => {
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
    const member = { firstName: 'Tomas', lastName: 'Diaz', phoneNumber: '+14155550182', messagingPreference: 'sms' as const };
    await addMember(page.request, server.url, loop.id, member);
    const sent = await page.request.post(
      `${server.url}/api/simulator/phones/${encodeURIComponent(member.phoneNumber)}/messages`,
      simulatorFiles('Listen to this!', [
        { contentType: 'audio/mp4', bytes: m4aMemo(3), name: 'memo.m4a' },
        { contentType: 'video/quicktime', bytes: movVideo({ seconds: 2, width: 640, height: 360 }), name: 'clip.mov' },
      ]),
    );
    expect(sent.status()).toBe(202);
    await waitForUpdates(page.request, server.url, loop.id, 1);
    expect(openai.uploads.map((u) => [u.fields.model, u.file?.type])).toEqual([['gpt-4o-mini-transcribe', 'audio/mp4']]);

    await page.goto(`${server.url}/loops/${loop.id}`);
    await page.getByRole('tab', { name: 'Updates' }).click();
    const player = page.getByRole('group', { name: 'Voice memo, 0:03, from Tomas Diaz' });
    await waitVisible(player);
    const audio = player.locator('audio');
    expect(await audio.evaluate((a: HTMLAudioElement) => [a.preload, a.currentTime])).toEqual(['none', 0]);
    // Its length before it is played, from the server, not "0:00 / 0:00".
    await waitVisible(player.getByText('0:00 / 0:03'));
    expect(await player.getByRole('slider', { name: 'Position' }).getAttribute('aria-valuetext')).toBe('0:00 of 0:03');
    await waitVisible(page.getByText('Hi Grandma! We went to the beach today.'));
    await waitVisible(page.getByText('Video, 0:02'));
    const video = page.locator('video');
    expect(await video.evaluate((v: HTMLVideoElement) => [v.controls, v.playsInline, v.preload, v.width, v.height])).toEqual([
      true,
      true,
      'none',
      640,
      360,
    ]);
    expect(await video.getAttribute('poster')).toMatch(/^\/media\/[\w-]+\/\d+$/);

    // Press Play, then Pause.
    await player.getByRole('button', { name: 'Play' }).click();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.3);
    await player.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.paused)).toBe(true);
    await waitVisible(player.getByRole('button', { name: 'Play' }));
    // The converted video (H.264 + AAC, +faststart) plays too: muted, as a page may start it.
    const started = await video.evaluate((v: HTMLVideoElement) => {
      v.muted = true;
      return v.play().then(
        () => 'playing',
        (error: Error) => error.name,
      );
    });
    expect(started).toBe('playing');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 20_000 }).toBeGreaterThan(0.3);
    await video.evaluate((v: HTMLVideoElement) => v.pause());

    await atPhoneAndDesktop(page, 'updates-clips', player);
    expect(await seriousViolations(page)).toEqual([]);

    // The admin update detail plays them too, with the transcript beside the memo.
    await page.goto(`${server.url}/admin/loops/${loop.id}`);
    const adminAudio = page.getByRole('group', { name: 'Voice memo, 0:03, from Tomas Diaz' });
    await waitVisible(adminAudio);
    await waitVisible(adminAudio.getByText('0:00 / 0:03'));
    await waitVisible(page.getByText('Hi Grandma! We went to the beach today.'));
    expect(await page.locator('video').evaluate((v: HTMLVideoElement) => [v.preload, v.width, v.height])).toEqual(['none', 640, 360]);
    await atPhoneAndDesktop(page, 'admin-update-clips', adminAudio);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
    expect(errors).toEqual([]);
  });
});
