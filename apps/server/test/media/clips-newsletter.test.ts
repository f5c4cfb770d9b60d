import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepUntilIdle } from '../../src/jobs/message-worker';
import { renderMarkdown } from '../../src/publishing/render-markdown';
import { templateWriter } from '../../src/publishing/template-writer';
import { publishNewsletter } from '../../src/services/newsletters/publish-newsletter';
import { m4aMemo, movVideo } from '../helpers/clips';
import { createLoop, createPerson, updatesOf, useFakeTwilioApp } from '../helpers/messaging';
import { mmsParams, postWebhook, sid } from '../helpers/twilio-fixtures';

const env = useFakeTwilioApp();
let browser: Browser;
let baseUrl: string;

beforeAll(async () => {
  await env.t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(env.t.app.server.address() as AddressInfo).port}`;
  // Debian's Chromium, headless (as e2e/support/browser.ts launches it): never a downloaded browser.
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});
afterAll(async () => {
  await browser?.close();
});

describe('a voice memo and a video in the newsletter', () => {
  it('the template writer places them, the public page plays them: press play and the time advances', async () => {
    const db = env.db();
    const person = await createPerson(db, { firstName: 'Ada' });
    const loop = await createLoop(db, { name: 'Grandkids', memberIds: [person.id] });
    const mediaPath = () => `/2010-04-01/Accounts/${env.fake.accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`;
    const media = [
      { url: env.fake.addMedia(mediaPath(), m4aMemo(4), 'audio/mp4'), contentType: 'audio/mp4' },
      {
        url: env.fake.addMedia(mediaPath(), movVideo({ seconds: 4, width: 640, height: 360 }), 'video/quicktime'),
        contentType: 'video/quicktime',
      },
    ];
    await postWebhook(
      env.t.app,
      '/api/webhooks/twilio/messages',
      mmsParams({ accountSid: env.fake.accountSid, from: person.phoneNumber, body: 'Listen to her!', media }),
      {
        authToken: env.fake.authToken,
      },
    );
    await sweepUntilIdle(env.t.app.ctx);
    const [update] = await updatesOf(db, loop.id);
    const [memo, video] = update!.media;
    const published = await publishNewsletter(db, {
      loopId: loop.id,
      now: new Date(Date.now() + 60_000),
      writer: templateWriter,
      publicUrl: baseUrl,
      send: true,
    });
    if (published.status !== 'sent') throw new Error(`not sent: ${published.status}`);
    expect(published.newsletter.content).toContain('1 update, 1 voice memo and 1 video');
    expect(published.newsletter.content).toContain(`![Voice memo from Ada, 0:04](/media/${memo!.storageKey})`);
    expect(published.newsletter.content).toContain(`![Video from Ada, 0:04](/media/${video!.storageKey})`);

    const page = await browser.newPage();
    try {
      await page.goto(`${baseUrl}/newsletters/${published.newsletter.urlId}`);
      /** Waits until the player's time is past 0.3 s: it is really playing. */
      const playedPast = (selector: string) =>
        page.waitForFunction(
          (s) => {
            const doc = (globalThis as unknown as { document: { querySelector(q: string): { currentTime: number } | null } }).document;
            return (doc.querySelector(s)?.currentTime ?? 0) > 0.3;
          },
          selector,
          { timeout: 20_000 },
        );
      const audio = page.locator('audio');
      expect(await audio.getAttribute('preload')).toBe('none');
      expect(await audio.getAttribute('src')).toBe(`/media/${memo!.storageKey}`);
      const player = page.locator('video');
      // (Page code as strings: this project's server tests are typed without the DOM.)
      expect(
        await page.evaluate("(v => [v.controls, v.playsInline, v.preload, v.width, v.height])(document.querySelector('video'))"),
      ).toEqual([true, true, 'none', 640, 360]);
      expect(await player.getAttribute('poster')).toBe(`/media/${video!.storageKey}/640`);
      expect(await page.locator('.clip-label').allTextContents()).toEqual(['Voice memo, 0:04', 'Video, 0:04']);

      // Press the players' own play buttons: Chromium draws them at the left of each control bar.
      const box = await audio.boundingBox();
      await audio.click({ position: { x: 16, y: (box?.height ?? 54) / 2 } });
      await playedPast('audio');
      const frame = await player.boundingBox();
      await player.click({ position: { x: 24, y: (frame?.height ?? 360) - 48 } });
      await playedPast('video');
      expect(await page.evaluate("(v => [v.videoWidth, v.videoHeight])(document.querySelector('video'))")).toEqual([640, 360]);

      // On paper (decision 0024): no player, its length and "Listen online" with the page's address.
      const shown = (selector: string) => page.evaluate(`getComputedStyle(document.querySelector('${selector}')).display`);
      expect([await shown('audio'), await shown('.clip-online')]).toEqual(['block', 'none']);
      await page.emulateMedia({ media: 'print' });
      expect([await shown('audio'), await shown('video'), await shown('.clip-label'), await shown('.clip-online')]).toEqual([
        'none',
        'none',
        'block',
        'block',
      ]);
      // The page's public address (PUBLIC_URL), the one its text message links to.
      const address = `${env.t.app.ctx.config.PUBLIC_URL}${new URL(page.url()).pathname}`;
      expect(await page.locator('.clip-online').allTextContents()).toEqual([`Listen online: ${address}`, `Watch online: ${address}`]);
    } finally {
      await page.close();
    }
  });

  it('plays only our own files: a player written into Markdown or pointing elsewhere is not kept', () => {
    const html = renderMarkdown('<audio controls src="https://evil.example/x.mp3"></audio> ![x](https://evil.example/x.mp4)');
    expect(html).not.toContain('<audio');
    expect(html).not.toContain('<video');
  });
});
