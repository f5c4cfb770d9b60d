import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, type RunningServer } from './server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface DemoServer {
  server: RunningServer;
  /** The demo's staff account, as `npm run demo` printed it. */
  account: { email: string; password: string };
  stop: () => Promise<void>;
}

/** Runs `npm run demo`'s command on a new embedded database and starts the real server on it. */
export async function startDemoServer(env: Record<string, string> = {}): Promise<DemoServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-demo-'));
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/cli/demo.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  const email = /Staff account\s+(\S+)/.exec(result.stdout)?.[1];
  const password = /Password\s+(\S+)/.exec(result.stdout)?.[1];
  if (result.status !== 0 || !email || !password) {
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`the demo command failed:\n${result.stdout}${result.stderr}`);
  }
  const server = await startServer({ DATA_DIR: dataDir, ...env });
  return {
    server,
    account: { email, password },
    stop: async () => {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
