import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newToken } from '../../src/lib/tokens';
import { TEST_DATABASE_URL } from '../helpers/database';
import { startServer, stopAllServers } from '../helpers/server-process';
import { faultDatabase, type FaultDatabase } from './helpers/fault-database';
import { until } from './helpers/wait';

/**
 * The operator's view of a real server process (`src/server.ts`, as `npm start` runs it, with
 * NODE_ENV=production): settings from a `.env` in the folder it starts from, request logs
 * switched on by LOG_REQUESTS, and /metrics with the scheduler's ticks and pg-boss's job lag.
 */
const KIND = TEST_DATABASE_URL ? 'postgres' : 'pglite';
const TOKEN = 'operator-metrics-token-0123';

describe(`a production process run by an operator (${KIND})`, () => {
  let target: FaultDatabase;
  let folder: string;
  beforeAll(async () => {
    target = await faultDatabase(KIND);
    folder = mkdtempSync(path.join(tmpdir(), 'loop-operator-'));
    // The environment's own LOG_LEVEL (warn, from the helper) would win over the file: set it here.
    writeFileSync(path.join(folder, '.env'), `# Loop's settings\nLOG_REQUESTS=true\nexport METRICS_TOKEN="${TOKEN}"\n`);
  });
  afterAll(async () => {
    await stopAllServers();
    await target?.cleanup();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  it('reads .env from its folder, logs each request when LOG_REQUESTS=true, and serves /metrics', { timeout: 180_000 }, async () => {
    // The database made and migrated first (on a busy machine a fresh PGlite takes the server's whole start time).
    await target.use(async () => {});
    const server = await startServer({ ...target.env, INIT_CWD: folder, LOG_LEVEL: 'info' });
    expect(server.output()).toContain(`settings from ${path.join(folder, '.env')}`);

    const health = await fetch(`${server.url}/api/health?probe=operator`);
    expect(health.status).toBe(200);
    const code = newToken('invite');
    // The app (200), or 503 "not built yet" where the web app is not built (CI builds it later).
    expect([200, 503]).toContain((await fetch(`${server.url}/join/${code}`)).status);
    await until(() => server.output().includes('"url":"/join/:token"'), 'the requests to be logged', 10_000);
    const logged = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"url":"/api/health?probe=…"'))
      .map((line) => JSON.parse(line) as { msg: string; res?: { statusCode: number } });
    expect(logged.map((l) => l.msg)).toEqual(['incoming request']);
    expect(server.output()).toMatch(/"res":\{"statusCode":200\},"responseTime":[\d.]+,"msg":"request completed"/);
    // Codes and tokens never reach the log, nor query values.
    expect(server.output()).not.toContain(code);
    expect(server.output()).not.toContain('probe=operator');

    expect((await fetch(`${server.url}/metrics`)).status).toBe(401);
    // The first scheduler tick runs at start.
    let text = '';
    await until(
      async () => {
        text = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } }).then((r) => r.text());
        return /^loop_scheduler_ticks_total\{outcome="ok"\} [1-9]/m.test(text);
      },
      'a scheduler tick to be counted',
      60_000,
    );
    expect(text).toMatch(/^loop_outbox_depth 0$/m);
    expect(text).toMatch(/^loop_http_request_duration_seconds_count\{method="GET",route="\/api\/health",status="200"\} [1-9]\d*$/m);
    expect(text).toContain('# TYPE loop_job_lag_seconds gauge');
  });
});
