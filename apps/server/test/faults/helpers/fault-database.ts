import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import twilio from 'twilio';
import { openDatabase, type Db } from '../../../src/db/client';
import { createTestDatabase } from '../../helpers/database';
import { smsParams, sid } from '../../helpers/twilio-fixtures';

export interface FaultDatabase {
  kind: 'postgres' | 'pglite';
  /** DATABASE_URL and DATA_DIR for a server process on this database. */
  env: Record<string, string>;
  dataDir: string;
  /** Runs `work` on the database. On PGlite only while no server holds the directory. */
  use: <T>(work: (db: Db) => Promise<T>) => Promise<T>;
  cleanup: () => Promise<void>;
}

/**
 * The database a fault test's server processes share: a fresh database on the TEST_DATABASE_URL
 * server, else a PGlite directory (which one process at a time may open).
 */
export async function faultDatabase(kind: 'postgres' | 'pglite'): Promise<FaultDatabase> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'loop-fault-'));
  if (kind === 'postgres') {
    const testDb = await createTestDatabase();
    return {
      kind,
      env: { DATABASE_URL: testDb.url ?? '', DATA_DIR: dataDir },
      dataDir,
      use: (work) => work(testDb.database.db),
      cleanup: async () => {
        await testDb.drop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  return {
    kind,
    env: { DATABASE_URL: '', DATA_DIR: dataDir },
    dataDir,
    use: async (work) => {
      const database = await openDatabase({ dataDir });
      try {
        return await work(database.db);
      } finally {
        await database.close();
      }
    },
    cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

export const INBOUND_PATH = '/api/webhooks/twilio/messages';

/** An inbound SMS webhook as Twilio signs it for `publicUrl`. */
export function signedInbound(
  publicUrl: string,
  auth: { accountSid: string; authToken: string },
  input: { from: string; body: string; messageSid?: string },
) {
  const messageSid = input.messageSid ?? sid('SM');
  const params = smsParams({ accountSid: auth.accountSid, from: input.from, body: input.body, messageSid });
  return {
    messageSid,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(auth.authToken, `${publicUrl}${INBOUND_PATH}`, params),
    },
    body: new URLSearchParams(params).toString(),
  };
}
