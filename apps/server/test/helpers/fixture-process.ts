import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

/** A stand-in server process (a script in test/fixtures) that the test drives line by line. */
export interface FixtureProcess {
  child: ChildProcessWithoutNullStreams;
  /** Resolves when the process prints this line (rejects if it exits first). */
  waitFor: (line: string) => Promise<void>;
  send: (line: string) => void;
  /** Closes its stdin and waits for it to exit; SIGKILL after 5 s. */
  stop: () => Promise<void>;
}

/** Starts test/fixtures/<file> with these variables and waits for its "ready". */
export function startFixtureProcess(file: string, env: Record<string, string>): Promise<FixtureProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(fixtures, file)], {
    env: { ...process.env, ...env },
  });
  let buffer = '';
  let stderr = '';
  const waiters: { line: string; resolve: () => void }[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      const index = waiters.findIndex((w) => w.line === line);
      if (index >= 0) waiters.splice(index, 1)[0]?.resolve();
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const worker: FixtureProcess = {
    child,
    waitFor: (line) =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ line, resolve });
        void exited.then(() => reject(new Error(`worker exited before "${line}": ${stderr}`)));
      }),
    send: (line) => child.stdin.write(`${line}\n`),
    stop: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
  return worker.waitFor('ready').then(() => worker);
}

/**
 * The settings of a scheduler-process.ts fixture on `databaseUrl`, sending through the fake
 * Twilio unpaced; `extra` adds or overrides (QUIET_HOURS...).
 */
export function schedulerFixtureEnv(
  twilio: Record<string, string>,
  databaseUrl: string | undefined,
  name: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    ...twilio,
    SEND_RATE_PER_SECOND: '0',
    DATABASE_URL: databaseUrl ?? '',
    SESSION_SECRET: `${name}-process-test-secret-0123456789`,
    DATA_DIR: path.join(fixtures, `../../.data-test-${name}`),
    LOG_LEVEL: 'silent',
    ...extra,
  };
}
