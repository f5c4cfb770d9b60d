import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config';
import { openDatabase, type Db } from '../../src/db/client';
import { messages, users } from '../../src/db/schema';
import { enqueueText } from '../../src/messaging/outbox';
import { createMediaStorage } from '../../src/storage/create-storage';
import { TEST_DATABASE_URL } from '../helpers/database';
import { createPerson } from '../helpers/messaging';

/**
 * docs/deploy.md, "Backup and restore": the commands it gives, run for real. A backup taken as
 * documented is restored into an empty place, and Loop opens it with every account, text and
 * photo, and goes on writing (sequences and migrations included).
 */
const folders: string[] = [];
const scratch = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'loop-backup-'));
  folders.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

const PHOTO = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);

/** Writes what a backup must keep: an account, a queued text, a photo. */
async function fill(db: Db, dataDir: string) {
  const person = await createPerson(db, { firstName: 'Backed' });
  const textId = await enqueueText(db, {
    kind: 'group_message',
    userId: person.id,
    body: 'Kept in the backup',
    idempotencyKey: `backup:${person.id}`,
  });
  const photoKey = await createMediaStorage(config(dataDir)).put(PHOTO);
  return { personId: person.id, phone: person.phoneNumber, textId: textId as number, photoKey };
}

/** Reads it back from the restored copy, and writes something new there. */
async function check(db: Db, dataDir: string, kept: Awaited<ReturnType<typeof fill>>) {
  const [person] = await db.select().from(users).where(eq(users.id, kept.personId));
  expect(person?.phoneNumber).toBe(kept.phone);
  const [text] = await db.select().from(messages).where(eq(messages.id, kept.textId));
  expect(text?.body).toBe('Kept in the backup');
  expect(await createMediaStorage(config(dataDir)).get(kept.photoKey)).toEqual(PHOTO);
  const added = await createPerson(db, { firstName: 'After' });
  expect(added.id).toBeGreaterThan(kept.personId);
}

/** Loop's settings on this DATA_DIR: the session secret is generated into it, as without SESSION_SECRET. */
function config(dataDir: string) {
  return loadConfig({ DATA_DIR: dataDir });
}

describe('backup and restore of DATA_DIR (the embedded database)', () => {
  it('a copy of the stopped DATA_DIR, unpacked into an empty folder, is the whole of Loop', { timeout: 120_000 }, async () => {
    const dataDir = path.join(scratch(), 'data');
    const original = await openDatabase({ dataDir });
    const kept = await fill(original.db, dataDir);
    await original.close(); // Loop is stopped for the backup: one process at a time opens DATA_DIR.

    // docs/deploy.md: tar -czf loop-backup.tgz -C ./data .
    const archive = path.join(scratch(), 'loop-backup.tgz');
    execFileSync('tar', ['-czf', archive, '-C', dataDir, '.']);
    // docs/deploy.md: mkdir ./data && tar -xzf loop-backup.tgz -C ./data
    const restoredDir = path.join(scratch(), 'data');
    mkdirSync(restoredDir);
    execFileSync('tar', ['-xzf', archive, '-C', restoredDir]);

    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      await check(restored.db, restoredDir, kept);
      expect(readFileSync(path.join(restoredDir, 'session-secret'), 'utf8')).toBe(
        readFileSync(path.join(dataDir, 'session-secret'), 'utf8'),
      );
    } finally {
      await restored.close();
    }
  });
});

describe.skipIf(!TEST_DATABASE_URL)('backup and restore of PostgreSQL', () => {
  it('pg_dump -Fc, then pg_restore into a new database, with the photos from DATA_DIR/media', { timeout: 120_000 }, async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    const names = [`loop_backup_${randomBytes(4).toString('hex')}`, `loop_restored_${randomBytes(4).toString('hex')}`];
    const urlOf = (name: string) => Object.assign(new URL(TEST_DATABASE_URL ?? ''), { pathname: `/${name}` }).toString();
    try {
      for (const name of names) await admin.query(`CREATE DATABASE ${name}`);
      const [sourceUrl, targetUrl] = names.map(urlOf) as [string, string];
      const dataDir = path.join(scratch(), 'data');
      const source = await openDatabase({ databaseUrl: sourceUrl, poolSize: 2 });
      const kept = await fill(source.db, dataDir);
      await source.close();

      // docs/deploy.md: pg_dump --format=custom --file=loop.dump "$DATABASE_URL" (while Loop runs),
      // and the photos: tar -czf loop-media.tgz -C ./data media
      const dump = path.join(scratch(), 'loop.dump');
      execFileSync('pg_dump', ['--format=custom', `--file=${dump}`, sourceUrl]);
      const media = path.join(scratch(), 'loop-media.tgz');
      execFileSync('tar', ['-czf', media, '-C', dataDir, 'media']);

      // docs/deploy.md: pg_restore --no-owner --dbname="$NEW_DATABASE_URL" loop.dump, then the photos.
      execFileSync('pg_restore', ['--no-owner', `--dbname=${targetUrl}`, dump]);
      const restoredDir = path.join(scratch(), 'data');
      mkdirSync(restoredDir);
      execFileSync('tar', ['-xzf', media, '-C', restoredDir]);

      const restored = await openDatabase({ databaseUrl: targetUrl, poolSize: 2 });
      try {
        await check(restored.db, restoredDir, kept);
      } finally {
        await restored.close();
      }
    } finally {
      for (const name of names) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  });
});
