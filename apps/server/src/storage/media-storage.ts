import type { Readable } from 'node:stream';

/**
 * Where stored files live: media (photos, clips) and data exports. Local disk by default; an
 * S3-compatible store can fill the same shape.
 */
export interface MediaStorage {
  /** Stores the bytes under a new unguessable key and returns it. */
  put(bytes: Buffer): Promise<string>;
  /**
   * Stores a file from the local disk under a new unguessable key, read as a stream so memory
   * stays flat whatever its size (a data export's zip), and returns the key.
   */
  putFile(file: string): Promise<string>;
  /** The bytes under a key, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** The bytes under a key as a stream, or null when there are none. */
  getStream(key: string): Promise<Readable | null>;
  delete(key: string): Promise<void>;
}

/** A storage key: 256 random bits, base64url (randomToken()). */
export const STORAGE_KEY = /^[A-Za-z0-9_-]{43}$/;

/** The path stored media is served at. Update answers list these as `mediaUrls`. */
export function mediaUrl(storageKey: string): string {
  return `/media/${storageKey}`;
}
