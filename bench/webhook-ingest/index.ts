// `npm run bench -- webhook-ingest`: signed Twilio webhooks with unique MessageSids against the
// real server, once on PostgreSQL and once on PGlite, next to the same server's cheapest route.
// All traffic stays on 127.0.0.1 (a fake Twilio takes the replies); each run is bounded.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon, { type Result } from 'autocannon';
import pg from 'pg';
import twilio from 'twilio';
import { openDatabase } from '../../apps/server/src/db/client';
import { startFakeTwilio, type FakeTwilio } from '../../apps/server/test/helpers/fake-twilio';
import { startServer } from './server-process';

const POSTGRES = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const WEBHOOK = '/api/webhooks/twilio/messages';

interface Figures {
  database: string;
  health: Result;
  webhook: Result;
  stored: number;
}

async function main(): Promise<void> {
  const fake = await startFakeTwilio();
  const results: Figures[] = [];
  try {
    results.push(await onPostgres(fake));
    results.push(await onPglite(fake));
  } finally {
    await fake.close();
  }
  print(results);
}

async function onPostgres(fake: FakeTwilio): Promise<Figures> {
  const name = `loop_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(POSTGRES);
  url.pathname = `/${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  try {
    return await measure('PostgreSQL', fake, { DATABASE_URL: url.toString(), DATA_DIR: dataDir }, async (prefix) => {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      const { rows } = await client.query<{ count: string }>(
        "select count(*) from messages where direction = 'inbound' and provider_message_id like $1",
        [`${prefix}%`],
      );
      await client.end();
      return Number(rows[0]?.count ?? 0);
    });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function onPglite(fake: FakeTwilio): Promise<Figures> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-'));
  try {
    return await measure('PGlite', fake, { DATABASE_URL: '', DATA_DIR: dataDir }, async (prefix) => {
      // The server has stopped and released the directory: open it to count.
      const database = await openDatabase({ dataDir });
      const result = await database.pglite.query<{ count: number }>(
        "select count(*)::int as count from messages where direction = 'inbound' and provider_message_id like $1",
        [`${prefix}%`],
      );
      await database.close();
      return result.rows[0]?.count ?? 0;
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function measure(database: string, fake: FakeTwilio, env: Record<string, string>, countStored: (prefix: string) => Promise<number>): Promise<Figures> {
  console.log(`\n${database}: starting the server...`);
  const server = await startServer({
    ...env,
    TWILIO_ACCOUNT_SID: fake.accountSid,
    TWILIO_AUTH_TOKEN: fake.authToken,
    TWILIO_FROM_NUMBER: '+15005550006',
    TWILIO_API_BASE_URL: fake.url,
  });
  const prefix = `SM${randomBytes(6).toString('hex')}`;
  let health: Result;
  let webhook: Result;
  try {
    await autocannon({ url: `${server.url}/api/health`, connections: CONNECTIONS, duration: 2 });
    console.log(`${database}: GET /api/health for ${DURATION_S} s...`);
    health = await autocannon({ url: `${server.url}/api/health`, connections: CONNECTIONS, duration: DURATION_S });
    console.log(`${database}: POST ${WEBHOOK} for ${DURATION_S} s...`);
    webhook = await autocannon({
      url: `${server.url}${WEBHOOK}`,
      connections: CONNECTIONS,
      duration: DURATION_S,
      timeout: 10,
      requests: [{ setupRequest: signedWebhook(server.url, fake, prefix) }],
    });
  } finally {
    await server.stop();
  }
  return { database, health, webhook, stored: await countStored(prefix) };
}

/** A new inbound SMS per request: unique MessageSid, a sender of 1,000, signed as Twilio signs. */
function signedWebhook(publicUrl: string, fake: FakeTwilio, prefix: string) {
  let n = 0;
  return () => {
    n += 1;
    const messageSid = `${prefix}${n.toString(16).padStart(20, '0')}`;
    const params: Record<string, string> = {
      ToCountry: 'US',
      SmsMessageSid: messageSid,
      NumMedia: '0',
      SmsSid: messageSid,
      SmsStatus: 'received',
      Body: `Benchmark update number ${n}`,
      FromCountry: 'US',
      To: '+15005550006',
      NumSegments: '1',
      MessageSid: messageSid,
      AccountSid: fake.accountSid,
      From: `+1415555${String(n % 1000).padStart(4, '0')}`,
      ApiVersion: '2010-04-01',
    };
    return {
      method: 'POST',
      path: WEBHOOK,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(fake.authToken, `${publicUrl}${WEBHOOK}`, params),
      },
      body: new URLSearchParams(params).toString(),
    };
  };
}

function print(results: Figures[]): void {
  console.log(`\nwebhook-ingest: ${DURATION_S} s per run, ${CONNECTIONS} connections, 127.0.0.1\n`);
  const rows = results.map((r) => {
    const acknowledged = r.webhook['2xx'];
    return {
      database: r.database,
      'webhooks/s': Math.round(r.webhook.requests.average),
      'p99 ms': r.webhook.latency.p99,
      acknowledged,
      stored: r.stored,
      lost: Math.max(0, acknowledged - r.stored),
      'non-2xx/errors': `${r.webhook.non2xx}/${r.webhook.errors + r.webhook.timeouts}`,
      'health req/s': Math.round(r.health.requests.average),
      'health p99 ms': r.health.latency.p99,
      'webhook/health': `${Math.round((100 * r.webhook.requests.average) / Math.max(1, r.health.requests.average))}%`,
    };
  });
  console.table(rows);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
