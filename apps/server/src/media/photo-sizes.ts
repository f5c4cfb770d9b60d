import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { Photo } from '@loop/shared/photos';
import type { DbOrTx } from '../db/client';
import { media, updates } from '../db/schema';
import { STORAGE_KEY, mediaUrl } from '../storage/media-storage';

/**
 * The photos behind those /media/ paths that exist and are converted, by path; with `loopId`,
 * only that Loop's. A path not in the answer (deleted, another Loop's, not converted yet) is not
 * shown anywhere.
 */
export async function findPhotos(db: DbOrTx, paths: string[], options: { loopId?: number } = {}): Promise<Map<string, Photo>> {
  const keys = [...new Set(paths.filter((p) => p.startsWith('/media/')).map((p) => p.slice('/media/'.length)))].filter((k) => STORAGE_KEY.test(k));
  const found = new Map<string, Photo>();
  if (keys.length === 0) return found;
  const conditions: SQL[] = [inArray(media.storageKey, keys)];
  if (options.loopId !== undefined) conditions.push(eq(updates.loopId, options.loopId));
  const rows = await db
    .select({ storageKey: media.storageKey, width: media.width, height: media.height, variants: media.variants })
    .from(media)
    .innerJoin(updates, eq(updates.id, media.updateId))
    .where(and(...conditions));
  for (const row of rows) {
    if (row.variants.length === 0) continue;
    const url = mediaUrl(row.storageKey);
    found.set(url, { url, width: row.width, height: row.height, widths: row.variants.map((v) => v.width) });
  }
  return found;
}
