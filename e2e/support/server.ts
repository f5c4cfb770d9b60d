import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  output: () => string;
  stop: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export interface StaffGrants {
  /** Emails that registerAccount() makes staff right after sign-up, through the admin CLI. */
  staffEmails: string[];
  /** Stops the server, runs `npm run admin -- grant EMAIL` (what an operator runs), starts it again. */
  grantStaff: (email: string) => Promise<void>;
}

/** The servers this file started, by URL, so registerAccount() can find a server's staff emails. */
export const runningServers = new Map<string, RunningServer & StaffGrants>();

/**
 * Starts the real server (the same entry `npm start` runs, against the built web app) on a free
 * port with an empty embedded database. Stop it in afterAll: it removes its data too.
 *
 * `ADMIN_EMAILS` is no longer a setting (staff are granted, never claimed). Tests that
 * pass it get the operator's way instead: registerAccount() signs the person up, then the server
 * stops, the admin CLI grants, and the server starts again on the same port and data (sessions
 * live in the database, so every browser stays signed in).
 */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer & StaffGrants> {
  const { ADMIN_EMAILS, ...rest } = env;
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  const childEnv = {
    ...process.env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    DATABASE_URL: '',
    // Browser tests run at any hour; a test of quiet hours turns them on.
    QUIET_HOURS: 'off',
    ...rest,
  };
  let log = '';
  let current = await launch(childEnv, url, (text) => (log += text));

  const server = {
    url,
    port,
    dataDir,
    output: () => log,
    staffEmails: (ADMIN_EMAILS ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== ''),
    grantStaff: async (email: string) => {
      await current.stop();
      const cli = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/admin.ts', 'grant', email], {
        cwd: root,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      cli.stdout?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      cli.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => cli.once('exit', resolve));
      if (code !== 0) throw new Error(`admin grant failed:\n${log}`);
      current = await launch(childEnv, url, (text) => (log += text));
    },
    stop: async () => {
      runningServers.delete(url);
      await current.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  runningServers.set(url, server);
  return server;
}

/** Spawns the server and waits until /api/health answers. */
async function launch(env: NodeJS.ProcessEnv, url: string, onOutput: (text: string) => void): Promise<{ stop: () => Promise<void> }> {
  let log = '';
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const record = (chunk: Buffer) => {
    log += chunk.toString();
    onOutput(chunk.toString());
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 150_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start:\n${log}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 150 s:\n${log}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}
