// `npm run mail-screenshots -w @loop/e2e`: the newsletter e-mail (decision 0048) as Chromium draws it, at 375 and
// 700 px wide, light and dark (prefers-color-scheme), from the 20-photo fixture with a voice memo, a
// video and a hostile member's text. Photos are drawn by sharp at the size each address asks for and
// answered by Playwright (context.route), so nothing leaves the machine. Writes full-page PNGs into
// e2e/artifacts/mail/ (not committed) to be looked at.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { renderNewsletterEmail } from '../apps/server/src/publishing/newsletter-email';
import { HOSTILE_TEXT, MEMBER, twentyPhotoNewsletter } from '../apps/server/test/fixtures/newsletter-email';
import { launchBrowser } from './support/browser';

const out = path.join(path.dirname(fileURLToPath(import.meta.url)), 'artifacts/mail');
mkdirSync(out, { recursive: true });
const email = await renderNewsletterEmail(twentyPhotoNewsletter(HOSTILE_TEXT), MEMBER);

/** A soft landscape-ish picture, different for every photo, `width` wide at the photo's own ratio. */
async function picture(url: string): Promise<Buffer> {
  const match = /\/media\/(\w+?)(\d\d)?[a-z]*(?:\/(\d+))?$/.exec(new URL(url).pathname);
  const n = Number(match?.[2] ?? 7);
  const width = Number(match?.[3] ?? 640);
  const height = Math.round(width * (n % 5 === 3 ? 4 / 3 : 3 / 4));
  const hue = (n * 47) % 360;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="hsl(${hue},60%,78%)"/><stop offset="1" stop-color="hsl(${(hue + 40) % 360},45%,45%)"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width * 0.72}" cy="${height * 0.3}" r="${width * 0.08}" fill="hsl(45,95%,85%)"/>
<path d="M0 ${height * 0.75} Q ${width * 0.3} ${height * 0.55} ${width * 0.6} ${height * 0.72} T ${width} ${height * 0.68} V ${height} H 0 Z" fill="hsl(${(hue + 90) % 360},35%,35%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 80 }).toBuffer();
}

const browser = await launchBrowser();
try {
  for (const width of [375, 700]) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme });
      await context.route('https://**/*', async (route) => {
        const url = route.request().url();
        if (url.includes('/media/')) await route.fulfill({ contentType: 'image/jpeg', body: await picture(url) });
        else await route.abort();
      });
      const page = await context.newPage();
      await page.setContent(email.html, { waitUntil: 'load' });
      const file = path.join(out, `newsletter-email-${width}-${colorScheme}.png`);
      await page.screenshot({ path: file, fullPage: true });
      console.log(file);
      await context.close();
    }
  }
} finally {
  await browser.close();
}
