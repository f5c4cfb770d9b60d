import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../../apps/server/src/app';
import { loadConfig, type Config } from '../../apps/server/src/config';

/** Twilio settings that never reach a network: codes are only queued in these benches. */
export const OFFLINE_TWILIO = {
  TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
  TWILIO_AUTH_TOKEN: 'bench',
  TWILIO_FROM_NUMBER: '+14155550000',
  TWILIO_API_BASE_URL: 'http://127.0.0.1:9',
  SUPPORT_CONTACT: 'help@example.com',
};

export interface BenchApp {
  app: Awaited<ReturnType<typeof buildApp>>;
  config: Config;
  /** How many texts of `kind` `code` are queued, to numbers starting with `prefix` when given. */
  codeTexts(prefix?: string): Promise<number>;
  close(): Promise<void>;
}

/**
 * The real app for the abuse-limit benches: production settings, embedded PGlite in a temporary
 * folder (removed by close), no scheduler, `env` over that, and `clock` as its time.
 */
export async function startBenchApp(env: Record<string, string>, clock?: () => Date): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-bench-abuse-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    SESSION_SECRET: 'bench-secret-bench-secret-bench-secret-01',
    SCHEDULER: 'false',
    ...env,
  });
  const app = await buildApp(config, { ...(clock ? { clock } : {}), logger: false });
  return {
    app,
    config,
    async codeTexts(prefix) {
      const to = prefix === undefined ? sql`true` : sql`to_address like ${`${prefix}%`}`;
      const result = await app.ctx.db.execute(sql`select count(*)::int as n from messages where kind = 'code' and ${to}`);
      return Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    },
    async close() {
      await app.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
