import autocannon, { type Instance } from 'autocannon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messages } from '../../src/db/schema';
import { enqueueText } from '../../src/messaging/outbox';
import { uniquePhone } from '../helpers/app';
import { TEST_DATABASE_URL } from '../helpers/database';
import { startFakeTwilio, twilioEnv, type FakeTwilio } from '../helpers/fake-twilio';
import { createPerson } from '../helpers/messaging';
import { faultDatabase, INBOUND_PATH, signedInbound, type FaultDatabase } from './helpers/fault-database';
import { rawConnection, requestText } from './helpers/raw-http';
import { startServer, stopAllServers } from '../helpers/server-process';
import { settled, sleep, until } from './helpers/wait';

/**
 * docs/reliability.md, "Stopping": SIGTERM while autocannon drives the API and a paced send batch
 * runs. Requests already running finish, new ones get a 503 with a message, every text goes out
 * exactly once (counted at the fake Twilio, across this process and the next), and the process
 * exits within 10 s. On PGlite, or on PostgreSQL when TEST_DATABASE_URL is set.
 */
const KIND = TEST_DATABASE_URL ? 'postgres' : 'pglite';
const TEXTS = 80;
const RATE = 5; // texts a second: a batch of 50 takes ten seconds

describe(`SIGTERM under load (${KIND})`, () => {
  let fake: FakeTwilio;
  let target: FaultDatabase;

  beforeAll(async () => {
    // Twilio answers after 250 ms, so sends are under way when the signal comes.
    [fake, target] = await Promise.all([startFakeTwilio({ responseDelayMs: 250 }), faultDatabase(KIND)]);
  });
  afterAll(async () => {
    await stopAllServers();
    await fake?.close();
    await target?.cleanup();
  });

  it('finishes running requests, answers 503 to new ones, sends every text once, and exits within 10 s', { timeout: 150_000 }, async () => {
    const seeded = await target.use(async (db) => {
      const phones: string[] = [];
      for (let i = 0; i < TEXTS; i++) {
        const person = await createPerson(db);
        await enqueueText(db, {
          kind: 'group_message',
          userId: person.id,
          body: `Fault test text ${i}`,
          idempotencyKey: `fault:sigterm:${i}`,
        });
        phones.push(person.phoneNumber);
      }
      return phones;
    });

    const a = await startServer({ ...twilioEnv(fake, { SEND_RATE_PER_SECOND: String(RATE) }), ...target.env });
    await until(() => fake.attempts.length >= 3, 'the send batch to start');

    // Load: the health check (a database round trip) on 8 connections, and signed inbound
    // webhooks from new phones (each stored, then answered with a text) on 4.
    let sigtermAt = Number.POSITIVE_INFINITY;
    const tally = {
      okBefore: 0,
      okAfter: 0,
      unavailable: 0,
      other: [] as string[],
      badUnavailable: [] as string[],
      errors: new Map<string, number>(),
    };
    const acked = new Set<string>();
    const onResponse = (status: number, body: string, headers: Record<string, string>) => {
      const after = performance.now() >= sigtermAt;
      if (status >= 200 && status < 300) {
        if (after) tally.okAfter += 1;
        else tally.okBefore += 1;
      } else if (status === 503) {
        tally.unavailable += 1;
        if (!readable503(body, headers)) tally.badUnavailable.push(`${JSON.stringify(headers)} ${body}`);
      } else {
        tally.other.push(`${status} ${body}`);
      }
    };
    const load: Instance[] = [
      autocannon({
        url: a.url,
        connections: 8,
        duration: 120,
        sampleInt: 100,
        requests: [
          { method: 'GET', path: '/api/health', onResponse: (status, body, _context, headers) => onResponse(status, body, headers) },
        ],
      }),
      autocannon({
        url: a.url,
        connections: 4,
        duration: 120,
        sampleInt: 100,
        overallRate: 100,
        requests: [
          {
            method: 'POST',
            path: INBOUND_PATH,
            setupRequest: (request, context) => {
              const webhook = signedInbound(a.url, fake, { from: uniquePhone(), body: 'Hello from the load' });
              context.sid = webhook.messageSid;
              return { ...request, method: 'POST', path: INBOUND_PATH, headers: webhook.headers, body: webhook.body };
            },
            onResponse: (status, body, context, headers) => {
              onResponse(status, body, headers);
              if (status === 200) acked.add(String(context.sid));
            },
          },
        ],
      }),
    ];
    for (const instance of load) {
      instance.on('reqError', (error: NodeJS.ErrnoException) => {
        const code = error.code ?? error.message;
        tally.errors.set(code, (tally.errors.get(code) ?? 0) + 1);
        // The listener is closed: nothing more to learn, and a refused connect loops at once.
        if (code === 'ECONNREFUSED') instance.stop();
      });
    }
    await sleep(1000);

    // Two requests in flight when the signal comes: headers read by the server (it answered
    // 100 Continue), half of the body sent.
    const port = Number(new URL(a.url).port);
    const probes = await Promise.all(
      [0, 1].map(async (i) => {
        const connection = await rawConnection(port);
        const webhook = signedInbound(a.url, fake, { from: uniquePhone(), body: `In flight ${i}` });
        const whole = requestText({
          method: 'POST',
          path: INBOUND_PATH,
          headers: { ...webhook.headers, expect: '100-continue' },
          body: webhook.body,
        });
        const cut = whole.length - Math.ceil(webhook.body.length / 2);
        connection.write(whole.slice(0, cut));
        expect((await connection.response()).status).toBe(100);
        return { connection, webhook, rest: whole.slice(cut) };
      }),
    );
    const sentBefore = fake.sent.length;
    sigtermAt = performance.now();
    a.child.kill('SIGTERM');
    // While they run, the server keeps listening and answers any new request with a 503.
    let refused: { status: number; connection: string | null; body: string } | undefined;
    await until(
      async () => {
        const response = await fetch(`${a.url}/api/health`, { headers: { connection: 'close' } });
        refused = { status: response.status, connection: response.headers.get('connection'), body: await response.text() };
        return response.status === 503;
      },
      'the server to start closing',
      10_000,
    );
    tally.unavailable += 1;
    expect(refused && readable503(refused.body, { connection: refused.connection ?? '' })).toBe(true);
    for (const probe of probes) probe.connection.write(probe.rest);
    const answered = await Promise.all(
      probes.map(async ({ connection }) => ({ first: await connection.response(), closed: await connection.closed() })),
    );

    const exit = await a.exited;
    const exitMs = performance.now() - sigtermAt;
    for (const instance of load) instance.stop();
    await Promise.all(load);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(10_000);
    for (const { first, closed } of answered) {
      expect(first.status, 'the request in flight finishes').toBe(200);
      expect(first.body).toContain('<Response>');
      expect(first.headers.connection, 'and says the connection closes').toBe('close');
      expect(closed).toBe(true);
    }
    expect(tally.other, 'no answer but 2xx and 503').toEqual([]);
    expect(tally.badUnavailable, 'every 503 has a message and closes its connection').toEqual([]);
    expect(tally.errors.get('request timed out') ?? 0, 'no request hangs').toBe(0);

    // Nothing was left leased by the stopped process: each text is sent, or due again now.
    const between = await target.use((db) => db.select().from(messages));
    expect(between.filter((m) => m.status === 'sending' || m.status === 'processing')).toEqual([]);
    const sentByA = fake.sent.length;
    const released = between.filter((m) => m.direction === 'outbound' && m.status === 'queued');
    expect(released.every((m) => m.attempts === 0 && m.nextAttemptAt === null)).toBe(true);

    // The next process sends the rest. Every text reaches Twilio exactly once.
    const b = await startServer({ ...twilioEnv(fake, { SEND_RATE_PER_SECOND: '0' }), ...target.env });
    const outboundCount = between.filter((m) => m.direction === 'outbound').length;
    await settled(() => fake.sent.length, 'the texts at the fake Twilio', { atLeast: outboundCount, timeoutMs: 60_000 });
    await b.stop();
    expect((await b.exited).code).toBe(0);

    const rows = await target.use((db) => db.select().from(messages));
    const outbound = rows.filter((m) => m.direction === 'outbound');
    const inbound = rows.filter((m) => m.direction === 'inbound');
    expect(outbound.filter((m) => m.status !== 'sent')).toEqual([]);
    expect(inbound.filter((m) => m.status !== 'processed' && m.status !== 'ignored')).toEqual([]);
    const stored = new Set(inbound.map((m) => m.providerMessageId));
    expect(
      [...acked].filter((sid) => !stored.has(sid)),
      'every acknowledged webhook is stored',
    ).toEqual([]);
    for (const { webhook } of probes) expect(stored.has(webhook.messageSid)).toBe(true);

    const perPhone = new Map<string, number>();
    for (const sent of fake.sent) perPhone.set(String(sent.params.To), (perPhone.get(String(sent.params.To)) ?? 0) + 1);
    expect(
      [...perPhone].filter(([, n]) => n !== 1),
      'no phone got a text twice',
    ).toEqual([]);
    expect(fake.sent.length).toBe(outbound.length);
    expect(seeded.filter((phone) => perPhone.get(phone) !== 1)).toEqual([]);
    expect(
      inbound.filter((m) => perPhone.get(m.fromAddress) !== 1),
      'every stored text got its reply',
    ).toEqual([]);

    console.log(
      `[faults] SIGTERM (${KIND}): exited ${exit.code} after ${Math.round(exitMs)} ms; ` +
        `${tally.okBefore} answered before the signal, ${tally.okAfter + answered.length} finished after it (${answered.length} of them held in flight), ${tally.unavailable} got 503, ` +
        `autocannon saw ${tally.errors.get('ECONNREFUSED') ?? 0} connections refused after the listener closed and ${tally.errors.get('ECONNRESET') ?? 0} resets (it writes again on a connection answered "Connection: close"); ` +
        `texts: ${sentBefore} reached Twilio before the signal, ${sentByA - sentBefore} after it, ${fake.sent.length - sentByA} from the next process ` +
        `(${released.length} were back in the outbox: released mid-batch or never claimed); ` +
        `${acked.size + probes.length} webhooks acknowledged, ${inbound.length} stored, ${outbound.length} texts sent once each, 0 twice, 0 lost`,
    );
  });
});

function readable503(body: string, headers: Record<string, string>): boolean {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    const connection = Object.entries(headers).find(([name]) => name.toLowerCase() === 'connection')?.[1] ?? '';
    return typeof parsed.message === 'string' && parsed.message.length > 0 && connection.toLowerCase() === 'close';
  } catch {
    return false;
  }
}
