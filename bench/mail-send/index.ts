// `npm run bench -- mail-send`: one newsletter to a Loop of 10,000 members who chose e-mail, on
// PostgreSQL, sent through nodemailer over SMTP to a local sink (smtp-server, in a process of its
// own). Prints e-mails rendered and queued per second (sendNewsletter: the renderer, the unsubscribe
// links and enqueueEmail, in one transaction), e-mails sent per second (the message worker with
// MAIL_RATE_PER_SECOND=0: claim, send-time check, SMTP, record) and the process's RSS at the start,
// the middle of the sending and the end. Target (decision 0047): at least 200 e-mails a second, memory flat.
// Uses a fresh database that it drops at the end.
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../../apps/server/src/config';
import { createAppContext } from '../../apps/server/src/create-context';
import { openDatabase } from '../../apps/server/src/db/client';
import { sweepUntilIdle } from '../../apps/server/src/jobs/message-worker';
import { mailLinksOf } from '../../apps/server/src/mail/links';
import { sendNewsletter } from '../../apps/server/src/services/newsletters/send-newsletter';
import { startBenchChild } from '../child-process';
import { createScratchDatabase } from '../scratch-database';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 10_000);
const mb = () => `${Math.round(process.memoryUsage().rss / 1024 / 1024)} MB`;

async function main(): Promise<void> {
  const load = loadavg()[0] ?? 0;
  const rss: Record<string, string> = { start: mb() };
  const scratch = await createScratchDatabase(POSTGRES);
  const sink = await startSinkProcess();
  const database = await openDatabase({ databaseUrl: scratch.url, poolSize: 10 });
  if (database.kind !== 'postgres') throw new Error('bench/mail-send runs on PostgreSQL only');
  try {
    const env = {
      DATABASE_URL: scratch.url,
      DATA_DIR: scratch.dataDir,
      SESSION_SECRET: 'x'.repeat(32),
      LOG_LEVEL: 'silent',
      SMTP_URL: sink.url,
      MAIL_FROM: 'Loop <loop@mail.example.com>',
      PUBLIC_URL: 'https://loop.example.com',
      MAIL_RATE_PER_SECOND: '0',
      SEND_RATE_PER_SECOND: '0',
    };
    const ctx = createAppContext(loadConfig(env), database, { log: console });
    const { loopId, newsletterId } = await seed(scratch.url);
    console.log(`seeded a Loop of ${MEMBERS} members who chose e-mail (confirmed addresses); RSS ${mb()}`);

    const queuedAt = performance.now();
    await sendNewsletter(ctx.db, { loopId, newsletterId, now: new Date(), publicUrl: env.PUBLIC_URL, mail: mailLinksOf(ctx.config) });
    const queueSeconds = (performance.now() - queuedAt) / 1000;
    const [{ queued } = { queued: 0 }] = (
      await database.pool.query<{ queued: number }>(`select count(*)::int as queued from messages where channel = 'email'`)
    ).rows;
    rss.queued = mb();

    let peak = process.memoryUsage().rss;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 100);
    const sendAt = performance.now();
    // The middle of the sending: when half have arrived at the sink.
    const middle = (async () => {
      while ((await sink.count()) < queued / 2) await new Promise((resolve) => setTimeout(resolve, 100));
      rss.middle = mb();
    })();
    await sweepUntilIdle(ctx);
    const sendSeconds = (performance.now() - sendAt) / 1000;
    await middle;
    clearInterval(sampler);
    const delivered = await sink.count();
    rss.end = mb();
    ctx.mailer.close();

    console.log(`machine: ${availableParallelism()} cores, load ${load.toFixed(2)} at start`);
    console.log(`rendered and queued: ${queued} e-mails in ${queueSeconds.toFixed(1)} s = ${Math.round(queued / queueSeconds)}/s`);
    console.log(
      `sent over SMTP:      ${delivered} e-mails in ${sendSeconds.toFixed(1)} s = ${Math.round(delivered / sendSeconds)}/s (target >= 200/s)`,
    );
    console.log(
      `end to end:          ${Math.round(delivered / (queueSeconds + sendSeconds))}/s (render, queue and send of ${delivered} e-mails)`,
    );
    console.log(
      `RSS: start ${rss.start}, queued ${rss.queued}, middle of sending ${rss.middle}, end ${rss.end}; peak while sending ${Math.round(peak / 1024 / 1024)} MB`,
    );
    if (delivered !== MEMBERS) throw new Error(`the sink got ${delivered} e-mails, not ${MEMBERS}`);
  } finally {
    await database.close();
    await sink.close();
    await scratch.drop();
  }
}

/** The Loop, its members (confirmed addresses, e-mail only) and a draft, in a few statements. */
async function seed(url: string): Promise<{ loopId: number; newsletterId: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`insert into users (first_name, last_name, phone_number, email, email_confirmed_address, newsletter_delivery)
      select 'Member', 'N' || i, '+1628' || lpad(i::text, 7, '0'), 'member' || i || '@example.org', 'member' || i || '@example.org', 'email'
      from generate_series(1, ${MEMBERS}) as i`);
    const loop = await client.query<{ id: number }>(
      `insert into loops (name, creator_id) values ('Bench Family', (select min(id) from users)) returning id`,
    );
    const loopId = Number(loop.rows[0]?.id);
    await client.query(`insert into members (loop_id, user_id, status) select ${loopId}, id, 'active' from users`);
    const content = Array.from(
      { length: 12 },
      (_, i) => `## Member ${i}\n\nGrandma planted **tomatoes** and the kids built a treehouse. ${'News. '.repeat(30)}`,
    ).join('\n\n');
    const newsletter = await client.query<{ id: number }>(
      `insert into newsletters (loop_id, url_id, title, content, period_end) values ($1, $2, 'March news', $3, now()) returning id`,
      [loopId, 'b'.repeat(43), content],
    );
    return { loopId, newsletterId: Number(newsletter.rows[0]?.id) };
  } finally {
    await client.end();
  }
}

async function startSinkProcess() {
  const child = await startBenchChild<{ url: string }>(path.join(import.meta.dirname, 'smtp-sink-process.ts'));
  return { url: child.ready.url, count: child.count, close: child.close };
}

await main();
