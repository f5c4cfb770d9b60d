import type { MediaVariant } from '../db/schema';
import { newToken } from '../lib/tokens';
import type { MediaStorage } from '../storage/media-storage';
import type { ConvertedClip } from './clip';
import { PHOTO_CONTENT_TYPE, type ConvertedPhoto } from './photo';

/** What a `media` row records of a converted photo or clip (any stored media). */
export interface StoredMedia {
  /** The media's capability in `/media/{key}`; each stored file lives under a key of its own. */
  storageKey: string;
  contentType: string;
  bytes: number;
  width: number;
  height: number;
  variants: MediaVariant[];
  /** A voice memo's words (decision 0024); photos and videos have none. */
  transcript?: string | null;
}

/** Writes every size of a photo. On a failure the sizes already written are removed again. */
export async function putPhoto(storage: MediaStorage, photo: ConvertedPhoto): Promise<StoredMedia> {
  const variants: MediaVariant[] = [];
  try {
    for (const variant of photo.variants) {
      variants.push({ width: variant.width, height: variant.height, bytes: variant.bytes.length, key: await storage.put(variant.bytes) });
    }
  } catch (error) {
    await deleteStoredKeys(
      storage,
      variants.map((v) => v.key),
    );
    throw error;
  }
  return {
    storageKey: newToken('mediaKey'),
    contentType: PHOTO_CONTENT_TYPE,
    bytes: variants.reduce((sum, v) => sum + v.bytes, 0),
    width: photo.width,
    height: photo.height,
    variants,
  };
}

/** Every storage key a media row holds: its sizes and, before conversion, the original under its own key. */
export function storedKeysOf(row: { storageKey: string; variants: MediaVariant[] }): string[] {
  return [row.storageKey, ...row.variants.map((v) => v.key)];
}

export async function deleteStoredKeys(storage: MediaStorage, keys: string[]): Promise<void> {
  for (const key of keys) await storage.delete(key);
}

/**
 * Writes a voice memo or video: a video's poster sizes first (WebP, served at /media/{key}/{width}),
 * then the converted file last (served at /media/{key}). On a failure nothing written is kept.
 */
export async function putClip(storage: MediaStorage, clip: ConvertedClip): Promise<StoredMedia> {
  const poster = clip.poster ? await putPhoto(storage, clip.poster) : null;
  let key: string;
  try {
    key = await storage.put(clip.bytes);
  } catch (error) {
    if (poster)
      await deleteStoredKeys(
        storage,
        poster.variants.map((v) => v.key),
      );
    throw error;
  }
  return {
    storageKey: newToken('mediaKey'),
    contentType: clip.contentType,
    bytes: clip.bytes.length + (poster?.bytes ?? 0),
    width: clip.width,
    height: clip.height,
    variants: [
      ...(poster?.variants ?? []),
      { width: clip.width, height: clip.height, key, bytes: clip.bytes.length, durationMs: clip.durationMs },
    ],
    transcript: clip.transcript ?? null,
  };
}

/** Stores a photo or a clip (voice memo or video), by what the pipeline made. */
export function putMedia(storage: MediaStorage, item: ConvertedPhoto | ConvertedClip): Promise<StoredMedia> {
  return 'kind' in item ? putClip(storage, item) : putPhoto(storage, item);
}
