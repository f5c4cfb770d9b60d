import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { EXPORT_OFFERED_HOURS } from '@loop/shared/account-data';
import type { AppContext } from '../../context';
import { dataExports } from '../../db/schema';
import { HOUR_MS, MINUTE_MS } from '../../lib/clock';
import { writeExportZip } from './write-export-zip';

/** How long one process holds an export it builds; past it another process takes it again. */
const LEASE_MS = 15 * MINUTE_MS;
/** Tries before an export is marked failed (the person can ask again). */
const MAX_ATTEMPTS = 3;

/**
 * Builds every export waiting (or whose builder died: its lease ran out), one at a time: claims a
 * row with SKIP LOCKED and a lease, writes the zip to a temporary file, stores it, marks it ready
 * for EXPORT_OFFERED_HOURS. Safe in any number of processes. Returns how many it finished.
 */
export async function buildDataExports(ctx: Pick<AppContext, 'db' | 'storage' | 'clock'>): Promise<number> {
  let finished = 0;
  for (;;) {
    const now = ctx.clock();
    const claimed = await ctx.db
      .execute(sql`update ${dataExports} set lease_until = ${new Date(now.getTime() + LEASE_MS)}, attempts = attempts + 1
      where id = (select id from ${dataExports}
        where ${and(eq(dataExports.status, 'building'), or(isNull(dataExports.leaseUntil), lt(dataExports.leaseUntil, now)))}
        order by id limit 1 for update skip locked)
      returning id, user_id, attempts`);
    const row = (claimed as { rows: { id: string | number; user_id: string | number; attempts: number }[] }).rows[0];
    if (!row) return finished;
    const id = Number(row.id);
    if (row.attempts > MAX_ATTEMPTS) {
      await ctx.db.update(dataExports).set({ status: 'failed', leaseUntil: null }).where(eq(dataExports.id, id));
      continue;
    }
    const folder = await mkdtemp(path.join(tmpdir(), 'loop-export-'));
    try {
      const file = path.join(folder, 'export.zip');
      const bytes = await writeExportZip(ctx.db, ctx.storage, Number(row.user_id), file, now);
      const storageKey = await ctx.storage.putFile(file);
      const readyAt = ctx.clock();
      const [kept] = await ctx.db
        .update(dataExports)
        .set({
          status: 'ready',
          storageKey,
          bytes,
          leaseUntil: null,
          readyAt,
          expiresAt: new Date(readyAt.getTime() + EXPORT_OFFERED_HOURS * HOUR_MS),
        })
        .where(and(eq(dataExports.id, id), eq(dataExports.status, 'building')))
        .returning({ id: dataExports.id });
      // The account was deleted, or a newer request replaced this one, while it was built.
      if (!kept) await ctx.storage.delete(storageKey);
      finished += 1;
    } finally {
      // On a failure the row stays building with its lease: tried again once the lease runs
      // out, up to MAX_ATTEMPTS.
      await rm(folder, { recursive: true, force: true });
    }
  }
}
