// `npm run bench -- mail-size`: the newsletter e-mail of a 20-photo issue (with a voice memo and a
// video, apps/server/test/fixtures/newsletter-email.ts): its HTML and plain-text size, raw and
// gzipped, against Gmail's 102 KB clipping limit, and how many e-mails are rendered per second,
// both as a send renders them (one newsletter, a different unsubscribe link and reply address for
// each member) and from scratch (a different newsletter every time, React Email and all).
import { gzipSync } from 'node:zlib';
import { newsletterEmails, renderNewsletterEmail, type EmailMember } from '../../apps/server/src/publishing/newsletter-email';
import { MEMBER, twentyPhotoNewsletter } from '../../apps/server/test/fixtures/newsletter-email';

const GMAIL_CLIP_KB = 102;
const view = twentyPhotoNewsletter();
const email = await renderNewsletterEmail(view, MEMBER);
const kb = (text: string) => (Buffer.byteLength(text) / 1024).toFixed(1);
const gzipKb = (text: string) => (gzipSync(text).length / 1024).toFixed(1);
console.log(`Subject: ${email.subject}`);
console.log(`HTML: ${kb(email.html)} KB (gzip ${gzipKb(email.html)} KB), Gmail clips above ${GMAIL_CLIP_KB} KB`);
console.log(`Plain text: ${kb(email.text)} KB (gzip ${gzipKb(email.text)} KB)`);

async function perSecond(label: string, seconds: number, make: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await make(-1 - i); // warm-up
  const start = performance.now();
  let n = 0;
  while (performance.now() - start < seconds * 1000) await make(n++);
  const rate = (n * 1000) / (performance.now() - start);
  console.log(`${label}: ${rate.toFixed(0)} e-mails/s (${n} in ${seconds} s)`);
}

// As a send renders them: one rendering kept by the send, each member's links filled in.
const send = newsletterEmails(view);
const member = (i: number): EmailMember => ({
  unsubscribeUrl: `${view.publicUrl}/email/unsubscribe/member${i}`,
  replyAddress: `reply+member${i}@loop.example`,
});
await perSecond('Rendered per member of one newsletter', 3, (i) => send(member(i)));
await perSecond('Rendered from scratch (a new newsletter each time)', 5, (i) =>
  renderNewsletterEmail(twentyPhotoNewsletter(`Issue ${i}.`), MEMBER),
);
const rss = process.memoryUsage().rss / 1024 / 1024;
console.log(`Memory (RSS) at the end: ${rss.toFixed(0)} MB`);
