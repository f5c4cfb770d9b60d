// `npm run bench -- voice`: TwiML answers per second for an incoming call (decision 0067). Builds
// Loop in this process on an embedded database in a temporary folder, with a member (Rose) of a
// Loop whose latest sent newsletter has 20 sections (20 members' news, written by the template
// writer), and posts Twilio-signed voice webhooks through `inject` (no sockets: the route's own
// time): the incoming call (attested: Rose is looked up, her Loops read, the issue read and cut
// into sections, the first answered) and the next-section step (the call state checked). Prints
// answers per second and the p50/p99 per step, one request at a time and BENCH_CONCURRENCY (8)
// at once. Target: the call route's p99 under 50 ms.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import twilio from 'twilio';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig } from '../../apps/server/src/config';
import { loops, members, newsletters, users } from '../../apps/server/src/db/schema';
import { writeFromTemplate } from '../../apps/server/src/publishing/template-writer';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const PUBLIC_URL = 'https://loop.example.com';
const TOKEN = randomBytes(16).toString('hex');
const ACCOUNT = `AC${randomBytes(16).toString('hex')}`;
const SECTIONS = 20;

const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-voice-'));
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  SCHEDULER: 'false',
  AUTO_NEWSLETTERS: 'off',
  PORT: '0',
  PUBLIC_URL,
  TWILIO_ACCOUNT_SID: ACCOUNT,
  TWILIO_AUTH_TOKEN: TOKEN,
  TWILIO_FROM_NUMBER: '+15005550006',
});
const app = await buildApp(config);
try {
  const { db } = app.ctx;
  const people = [];
  for (let i = 0; i < SECTIONS; i++) {
    const [user] = await db
      .insert(users)
      .values({ firstName: `Person${i}`, lastName: 'Parker', phoneNumber: `+1415555${String(1000 + i).padStart(4, '0')}` })
      .returning();
    people.push(user!);
  }
  const [loop] = await db.insert(loops).values({ name: 'The Parkers', creatorId: people[0]!.id }).returning();
  for (const person of people) await db.insert(members).values({ loopId: loop!.id, userId: person.id, status: 'active' });
  const end = new Date();
  const updates = people.flatMap((person, i) =>
    [0, 1, 2].map((n) => ({
      authorId: person.id,
      author: { firstName: person.firstName, lastName: person.lastName, context: null },
      content: `Update ${n} from ${person.firstName}: we went to the lake, the dog swam, and the tomatoes finally came up. `.repeat(2),
      photoUrls: [],
      clips: [],
      createdAt: new Date(end.getTime() - (i * 3 + n) * 3_600_000),
    })),
  );
  const written = writeFromTemplate({
    kind: 'newsletter',
    loop: { name: 'The Parkers', context: null, vibe: [], timeZone: 'America/New_York' },
    period: { start: new Date(end.getTime() - 7 * 86_400_000), end },
    updates,
  });
  await db.insert(newsletters).values({
    loopId: loop!.id,
    status: 'sent',
    urlId: randomBytes(16).toString('base64url'),
    content: written.content,
    periodEnd: end,
    sentAt: end,
  });
  const sections = (written.content.match(/^## /gm) ?? []).length;
  const caller = people[1]!.phoneNumber;

  const signed = (url: string, params: Record<string, string>) => ({
    method: 'POST' as const,
    url,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(TOKEN, `${PUBLIC_URL}${url}`, params),
    },
    payload: new URLSearchParams(params).toString(),
  });
  const callParams = () => ({
    AccountSid: ACCOUNT,
    CallSid: `CA${randomBytes(16).toString('hex')}`,
    From: caller,
    To: '+15005550006',
    CallStatus: 'ringing',
    Direction: 'inbound',
    StirVerstat: 'TN-Validation-Passed-A',
  });
  const incoming = () => {
    const params = callParams();
    return { request: signed('/api/webhooks/twilio/voice', params), params };
  };
  // The second section's step of a call, taken from the first answer.
  const nextStep = async () => {
    const { request, params } = incoming();
    const first = await app.inject(request);
    const url = /https:\/\/loop\.example\.com(\/api\/webhooks\/twilio\/voice\/play\?[^<"]+)/
      .exec(first.body)?.[1]
      ?.replaceAll('&amp;', '&');
    if (!url) throw new Error(`no next step in ${first.body}`);
    return signed(url, params);
  };

  const measure = async (name: string, make: () => Promise<ReturnType<typeof signed>> | ReturnType<typeof signed>, concurrency: number) => {
    const prepared: ReturnType<typeof signed>[] = [];
    for (let i = 0; i < REQUESTS; i++) prepared.push(await make());
    const times: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < prepared.length) {
          const request = prepared[next++]!;
          const t0 = performance.now();
          const answer = await app.inject(request);
          times.push(performance.now() - t0);
          if (answer.statusCode !== 200) throw new Error(`${name}: ${answer.statusCode} ${answer.body}`);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    console.log(
      `${name.padEnd(34)} ${String(concurrency).padStart(2)} at once: ${(REQUESTS / seconds).toFixed(0).padStart(5)} answers/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`,
    );
  };

  console.log(`voice: a ${sections}-section newsletter (${written.content.length} characters), PGlite, ${REQUESTS} answers per line`);
  for (const concurrency of [1, CONCURRENCY]) {
    await measure('incoming call (attested)', () => incoming().request, concurrency);
    await measure('next section (call state checked)', nextStep, concurrency);
  }
  console.log('Target: the incoming call p99 under 50 ms.');
} finally {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
}
