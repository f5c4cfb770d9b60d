import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The cookies an answer of a real server process sets, as a browser would send them back (a
 * cleared one, `name=`, is left out): for the tests and the benches that sign up over HTTP.
 */
export const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0] ?? '')
    .filter((c) => !c.endsWith('='))
    .join('; ');

/** A free port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

const running = new Set<ServerProcess>();

/** Stops every server this file started that is still running (for afterAll). */
export async function stopAllServers(): Promise<void> {
  await Promise.all([...running].map((server) => server.stop(2000)));
}

export interface StartOptions {
  /** false: return as soon as it is spawned, without waiting for /api/health. */
  waitForHealth?: boolean;
  /** Flags for the server's node, e.g. ['--cpu-prof'] (benchmarks). */
  nodeArgs?: string[];
  /** How long /api/health may take to answer at start (default 60 s). */
  startWithinMs?: number;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process printed, stdout and stderr. */
  output: () => string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves when it is gone. Safe to call twice. */
  stop: (graceMs?: number) => Promise<void>;
}

/**
 * Starts the real server (`src/server.ts`, as `npm start` runs it) on 127.0.0.1 and waits until
 * /api/health answers 200. `waitForHealth: false` returns as soon as it is spawned.
 */
export async function startServer(env: Record<string, string>, options: StartOptions = {}): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, options);
    } catch (error) {
      // Another process on the machine took the free port first: take another.
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOnce(env: Record<string, string>, options: StartOptions): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'src/server.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'fault-test-secret-fault-test-secret-0123',
      AUTO_NEWSLETTERS: 'off',
      // These processes test faults, not the proof-of-work (test/messaging/sms-pumping.test.ts solves it in one).
      SIGNUP_PROOF_OF_WORK: 'off',
      // Twilio in production asks for a support contact (the HELP answer names it).
      SUPPORT_CONTACT: 'help@loop.example',
      // Fault tests run at any hour; a test of quiet hours turns them on.
      QUIET_HOURS: 'off',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(server);
      resolve({ code, signal });
    }),
  );
  const server: ServerProcess = {
    url,
    child,
    output: () => output,
    exited,
    stop: async (graceMs = 15_000) => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
  running.add(server);
  if (options.waitForHealth === false) return server;
  const startWithinMs = options.startWithinMs ?? 60_000;
  const deadline = Date.now() + startWithinMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`the server exited at start:\n${output}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return server;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      await server.stop(0);
      throw new Error(`the server did not start within ${startWithinMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
