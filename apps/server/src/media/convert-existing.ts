import { and, asc, eq, gt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import { media } from '../db/schema';
import type { MediaStorage } from '../storage/media-storage';
import { convertPhoto } from './photo';
import { deleteStoredKeys, putPhoto } from './stored-media';

const BATCH = 20;

export interface ConversionReport {
  converted: number;
  /** Originals that were damaged, not photos, or missing from storage: their rows are removed. */
  removed: number;
  /** Converted meanwhile by another server process. */
  skipped: number;
}

/**
 * The one-off conversion of photos stored before the pipeline (empty `variants`): each original
 * is converted like a new photo, its sizes stored, its row updated, and then the original is
 * deleted. Idempotent and resumable: the rows still to do are exactly those with no sizes, so a
 * stop anywhere leaves every photo either done or still to do, and several server processes may
 * run it at once (a row is claimed by a conditional update; the loser removes its files).
 * Progress goes to the log.
 */
export async function convertExistingPhotos(
  db: Db,
  storage: MediaStorage,
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>,
): Promise<ConversionReport> {
  const report: ConversionReport = { converted: 0, removed: 0, skipped: 0 };
  const [pending] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(media)
    .where(sql`${media.variants} = '[]'::jsonb`);
  const total = pending?.n ?? 0;
  if (total === 0) return report;
  log.info({ total }, `Converting ${total} stored photos to upright, metadata-free sizes`);
  let after = 0;
  for (;;) {
    const rows = await db
      .select({ id: media.id, storageKey: media.storageKey })
      .from(media)
      .where(and(sql`${media.variants} = '[]'::jsonb`, gt(media.id, after)))
      .orderBy(asc(media.id))
      .limit(BATCH);
    if (rows.length === 0) break;
    for (const row of rows) {
      after = row.id;
      await convertOne(db, storage, row, report, log);
    }
    const done = report.converted + report.removed + report.skipped;
    log.info({ done, total, converted: report.converted, removed: report.removed }, `Converted ${done} of ${total} stored photos`);
  }
  return report;
}

async function convertOne(
  db: Db,
  storage: MediaStorage,
  row: { id: number; storageKey: string },
  report: ConversionReport,
  log: Pick<FastifyBaseLogger, 'warn'>,
): Promise<void> {
  const original = await storage.get(row.storageKey);
  const result = original ? await convertPhoto(original) : { ok: false as const, reason: 'its file is missing' };
  if (!result.ok) {
    // A photo that cannot be shown is not kept half-way: its row and file go.
    await db.delete(media).where(and(eq(media.id, row.id), sql`${media.variants} = '[]'::jsonb`));
    await storage.delete(row.storageKey);
    log.warn({ mediaId: row.id, reason: result.reason }, 'A stored photo could not be converted and was removed');
    report.removed += 1;
    return;
  }
  const stored = await putPhoto(storage, result.photo);
  // The photo keeps its key (its /media/ address in sent newsletters); only the sizes are new.
  const claimed = await db
    .update(media)
    .set({ variants: stored.variants, width: stored.width, height: stored.height, contentType: stored.contentType, bytes: stored.bytes })
    .where(and(eq(media.id, row.id), sql`${media.variants} = '[]'::jsonb`))
    .returning({ id: media.id });
  if (claimed.length === 0) {
    await deleteStoredKeys(
      storage,
      stored.variants.map((v) => v.key),
    );
    report.skipped += 1;
    return;
  }
  await storage.delete(row.storageKey);
  report.converted += 1;
}
