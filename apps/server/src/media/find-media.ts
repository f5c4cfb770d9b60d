import { and, eq, inArray, not, type SQL } from 'drizzle-orm';
import type { Clip, Photo } from '@loop/shared/media';
import type { DbOrTx } from '../db/client';
import { media, updates, type MediaVariant } from '../db/schema';
import { STORAGE_KEY, mediaUrl } from '../storage/media-storage';
import { isClipType, isClipRow } from './clip';

/**
 * The photos behind those /media/ paths that exist and are converted, by path; with `loopId`,
 * only that Loop's. A path not in the answer (deleted, another Loop's, not converted yet) is not
 * shown anywhere.
 */
export async function findPhotos(db: DbOrTx, paths: string[], options: { loopId?: number } = {}): Promise<Map<string, Photo>> {
  const found = new Map<string, Photo>();
  for (const row of await mediaRows(db, paths, not(isClipRow), options)) {
    if (row.variants.length === 0) continue;
    const url = mediaUrl(row.storageKey);
    found.set(url, { url, width: row.width, height: row.height, widths: row.variants.map((v) => v.width) });
  }
  return found;
}

/** The clips (voice memos and videos) behind those /media/ paths, by path, as findPhotos finds photos. */
export async function findClips(db: DbOrTx, paths: string[], options: { loopId?: number } = {}): Promise<Map<string, Clip>> {
  const found = new Map<string, Clip>();
  for (const row of await mediaRows(db, paths, isClipRow, options)) {
    const clip = clipOf(row);
    if (clip) found.set(clip.url, clip);
  }
  return found;
}

/** What clipOf (and a photo's sizes) are read from. */
export const MEDIA_FILE_COLUMNS = {
  storageKey: media.storageKey,
  contentType: media.contentType,
  width: media.width,
  height: media.height,
  variants: media.variants,
  transcript: media.transcript,
};

/** A voice memo's or video's row as pages play it; null for a photo's. */
export function clipOf(row: {
  storageKey: string;
  contentType: string;
  width: number;
  height: number;
  variants: MediaVariant[];
  transcript?: string | null;
}): Clip | null {
  const file = row.variants.at(-1);
  if (!isClipType(row.contentType) || file?.durationMs === undefined) return null;
  const url = mediaUrl(row.storageKey);
  const poster = row.variants.filter((v) => v.durationMs === undefined).at(-1);
  return {
    url,
    kind: row.contentType.startsWith('video/') ? 'video' : 'audio',
    durationMs: file.durationMs,
    width: row.width,
    height: row.height,
    poster: poster ? `${url}/${poster.width}` : null,
    transcript: row.transcript ?? null,
  };
}

async function mediaRows(db: DbOrTx, paths: string[], kind: SQL, options: { loopId?: number }) {
  const keys = [...new Set(paths.filter((p) => p.startsWith('/media/')).map((p) => p.slice('/media/'.length)))].filter((k) =>
    STORAGE_KEY.test(k),
  );
  if (keys.length === 0) return [];
  const conditions: SQL[] = [inArray(media.storageKey, keys), kind];
  if (options.loopId !== undefined) conditions.push(eq(updates.loopId, options.loopId));
  return db
    .select(MEDIA_FILE_COLUMNS)
    .from(media)
    .innerJoin(updates, eq(updates.id, media.updateId))
    .where(and(...conditions));
}
