import { timingSafeEqual } from 'node:crypto';
import { hashToken } from '../../lib/tokens';

/**
 * The download path of a ready export: /api/user/export/{id}/{token}, the token a keyed hash of
 * the export and its stored file (256 bits, never stored). It works only with the session of the
 * person it belongs to: the route checks both.
 */
export function exportDownloadUrl(exportId: number, storageKey: string, secret: string): string {
  return `/api/user/export/${exportId}/${exportToken(exportId, storageKey, secret)}`;
}

function exportToken(exportId: number, storageKey: string, secret: string): string {
  return hashToken(`data-export:${exportId}:${storageKey}`, secret);
}

/** Whether a presented token is the one for this export, compared in constant time. */
export function exportTokenMatches(presented: string, exportId: number, storageKey: string, secret: string): boolean {
  const expected = Buffer.from(exportToken(exportId, storageKey, secret));
  const given = Buffer.from(presented);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
