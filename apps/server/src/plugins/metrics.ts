import { createHash, timingSafeEqual } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import fp from 'fastify-plugin';
import { Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { processRegistry } from '../metrics/process-metrics';

const NOT_ROUTED = '(no route)';

/**
 * GET /metrics in Prometheus's text format, on when METRICS_TOKEN is set (then only with
 * `Authorization: Bearer <token>`). Off, it answers 404 with a message saying how to turn it on.
 *
 * - HTTP latency by route: one onResponse hook; the route is its pattern (/api/loops/:loopId), so
 *   the series stay few whatever ids people request; requests no route matched share one label.
 * - Texts, the outbox, the inbound backlog and job lag are read from the database at scrape
 *   time (one query each), so they are the cluster's true figures whichever process answers, and
 *   the messaging code needs no hooks. Texts by direction, channel and status count the rows in
 *   `messages` (a gauge: deleting a member deletes their texts).
 * - Send errors by Twilio code and scheduler ticks are counted by this process as they happen
 *   (metrics/process-metrics.ts), with Node's own process metrics.
 */
export default fp(async (app) => {
  const { config, db, clock } = app.ctx;
  const registry = new Registry();

  const latency = new Histogram({
    name: 'loop_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status code, and how long they took',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = reply.statusCode === 404 && !request.routeOptions.url ? NOT_ROUTED : (request.routeOptions.url ?? NOT_ROUTED);
    latency.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  const fromDatabase = databaseGauges(registry, db, clock);

  const expected = config.METRICS_TOKEN ? digest(config.METRICS_TOKEN) : undefined;
  app.get('/metrics', async (request, reply) => {
    if (!config.metricsOn || !expected) {
      return reply.code(404).send({ message: 'Metrics are off: set METRICS_TOKEN on the server to turn them on.' });
    }
    const given = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
    if (!given || !timingSafeEqual(digest(given), expected)) {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ message: 'Send the metrics token: Authorization: Bearer <METRICS_TOKEN>.' });
    }
    await fromDatabase.refresh();
    const text = `${await processRegistry.metrics()}\n${await registry.metrics()}`;
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
});

/** Equal-length digests, so comparing tokens takes the same time whatever was sent. */
function digest(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

/** The rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
async function query<T>(db: Db, statement: SQL): Promise<T[]> {
  const result = await db.execute(statement);
  return (result as { rows: T[] }).rows;
}

/**
 * The figures read from the database, as plain gauges; `refresh` reads them all (three queries,
 * side by side) and is awaited before each scrape is written out.
 */
function databaseGauges(registry: Registry, db: Db, clock: Clock): { refresh: () => Promise<void> } {
  const texts = new Gauge({
    name: 'loop_texts',
    help: 'Texts stored, by direction (inbound, outbound), channel (sms, whatsapp) and status',
    labelNames: ['direction', 'channel', 'status'] as const,
    registers: [registry],
  });
  const gauge = (name: string, help: string) => new Gauge({ name, help, registers: [registry] });
  const queue = {
    outboxDepth: gauge('loop_outbox_depth', 'Outbound texts not sent yet: queued (due or waiting for a retry) or being sent'),
    outboxDue: gauge('loop_outbox_due', 'Outbound texts due to be sent now'),
    outboxOldestDueAge: gauge('loop_outbox_oldest_due_age_seconds', 'How long the oldest due outbound text has been due (0: none due)'),
    inboundBacklog: gauge('loop_inbound_backlog', 'Inbound texts received and not yet turned into updates or replies'),
    inboundOldestAge: gauge('loop_inbound_oldest_age_seconds', 'How long the oldest inbound text of the backlog has waited (0: none)'),
  } satisfies Record<keyof QueueFigures, Gauge>;
  const jobLag = new Gauge({
    name: 'loop_job_lag_seconds',
    help: 'Background jobs (pg-boss): how long the oldest job due to start has waited, by queue',
    labelNames: ['queue'] as const,
    registers: [registry],
  });

  return {
    refresh: async () => {
      const [byStatus, figures, lags] = await Promise.all([
        query<{ direction: string; channel: string; status: string; count: number }>(
          db,
          sql`select direction::text, channel::text, status, count(*)::int as count from messages group by 1, 2, 3`,
        ),
        readQueue(db, clock()),
        readJobLag(db),
      ]);
      texts.reset();
      for (const row of byStatus) texts.set({ direction: row.direction, channel: row.channel, status: row.status }, Number(row.count));
      for (const [key, value] of Object.entries(figures) as [keyof QueueFigures, number][]) queue[key].set(value);
      jobLag.reset();
      for (const row of lags) jobLag.set({ queue: row.name }, Number(row.lag));
    },
  };
}

interface QueueFigures {
  outboxDepth: number;
  outboxDue: number;
  outboxOldestDueAge: number;
  inboundBacklog: number;
  inboundOldestAge: number;
}

async function readQueue(db: Db, now: Date): Promise<QueueFigures> {
  const at = sql`${now.toISOString()}::timestamptz`;
  // Due as the worker claims it (messaging/claim-messages.ts): waiting with no retry time or one
  // that has come, or being worked under a lease that ran out.
  const dueSince = sql`case
    when status in ('queued', 'received') and (next_attempt_at is null or next_attempt_at <= ${at}) then coalesce(next_attempt_at, created_at)
    when status in ('sending', 'processing') and next_attempt_at <= ${at} then next_attempt_at end`;
  const [row = {}] = await query<Record<string, number | string | null>>(
    db,
    sql`
    select
      count(*) filter (where direction = 'outbound')::int as outbox_depth,
      count(${dueSince}) filter (where direction = 'outbound')::int as outbox_due,
      extract(epoch from ${at} - min(${dueSince}) filter (where direction = 'outbound'))::float8 as outbox_oldest,
      count(*) filter (where direction = 'inbound')::int as inbound_backlog,
      extract(epoch from ${at} - min(created_at) filter (where direction = 'inbound'))::float8 as inbound_oldest
    from messages
    where status in ('queued', 'sending', 'received', 'processing')`,
  );
  const seconds = (value: unknown) => Math.max(0, Number(value ?? 0));
  return {
    outboxDepth: Number(row.outbox_depth ?? 0),
    outboxDue: Number(row.outbox_due ?? 0),
    outboxOldestDueAge: seconds(row.outbox_oldest),
    inboundBacklog: Number(row.inbound_backlog ?? 0),
    inboundOldestAge: seconds(row.inbound_oldest),
  };
}

/** Per pg-boss queue, the wait of its oldest job that may start; none without pg-boss's tables. */
async function readJobLag(db: Db): Promise<{ name: string; lag: number }[]> {
  const [exists] = await query<{ table: string | null }>(db, sql`select to_regclass('pgboss.job')::text as table`);
  if (!exists?.table) return [];
  return query<{ name: string; lag: number }>(
    db,
    sql`
    select name, coalesce(extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now())), 0)::float8 as lag
    from pgboss.job where state in ('created', 'retry', 'active') group by name`,
  );
}
