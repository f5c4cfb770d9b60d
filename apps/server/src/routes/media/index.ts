import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { media, type MediaVariant } from '../../db/schema';
import { AppError } from '../../errors';
import { isClipType } from '../../media/clip';
import { PHOTO_CONTENT_TYPE } from '../../media/photo';
import { STORAGE_KEY } from '../../storage/media-storage';

/** One text for any kind: an unknown key has no row that could say whether it was a photo or a clip. */
const NOT_FOUND = 'This photo, voice memo or video does not exist or was deleted.';
/** Stored media (a photo, voice memo or video) opened on its own can run nothing, load nothing and be framed by nobody. */
export const MEDIA_CSP = "default-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/**
 * The byte range a Range header asks for (RFC 9110 section 14.1.2): one range only, as browsers
 * ask for media; `null` means the whole file (no header, several ranges, or another unit), and
 * 'unsatisfiable' a range that starts past the end.
 */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(match[1]);
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}

/**
 * GET /media/:key (a photo's largest size, or the voice memo or video itself) and
 * /media/:key/:width (one stored width of a photo or of a video's poster). The 256-bit key is the
 * capability (newsletter pages and Twilio fetch media without a session); a deleted update's
 * media stop being served at once. Only converted files are ever served, never an original as
 * it was sent (decisions 0022, 0023). Range requests are answered (206), as Safari needs to play
 * audio and video at all. Other origins may show them (Cross-Origin-Resource-Policy: cross-origin):
 * a newsletter e-mail's photos load in webmail pages that fetch them directly, and in the Mail
 * Simulator's sandboxed frame, whose origin is opaque; the key, not the origin, is the capability.
 */
const mediaRoutes: FastifyPluginAsync = async (app) => {
  const serve = async (request: FastifyRequest, reply: FastifyReply, key: string, width: string | undefined) => {
    if (!STORAGE_KEY.test(key) || (width !== undefined && !/^[1-9][0-9]{0,4}$/.test(width))) throw new AppError('not_found', NOT_FOUND);
    const [row] = await app.ctx.db
      .select({ contentType: media.contentType, variants: media.variants })
      .from(media)
      .where(eq(media.storageKey, key));
    // A video's poster sizes are its pictures by width; the clip itself (with a duration) is only ever /media/:key.
    const pictures: MediaVariant[] = row?.variants.filter((v) => v.durationMs === undefined) ?? [];
    const variant = row && (width === undefined ? row.variants.at(-1) : pictures.find((v) => v.width === Number(width)));
    const bytes = variant ? await app.ctx.storage.get(variant.key) : null;
    if (!row || !variant || !bytes) throw new AppError('not_found', NOT_FOUND);
    reply
      // A video's poster is WebP; everything else is of the row's type.
      .type(variant.durationMs === undefined && isClipType(row.contentType) ? PHOTO_CONTENT_TYPE : row.contentType)
      .header('accept-ranges', 'bytes')
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', MEDIA_CSP)
      .header('content-disposition', 'inline')
      .header('cross-origin-resource-policy', 'cross-origin')
      .header('cache-control', 'private, max-age=86400');
    const range = parseRange(request.headers.range, bytes.length);
    if (range === 'unsatisfiable') {
      return reply.code(416).header('content-range', `bytes */${bytes.length}`).send();
    }
    if (range) {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${bytes.length}`)
        .send(bytes.subarray(range.start, range.end + 1));
    }
    return reply.send(bytes);
  };
  app.get<{ Params: { key: string } }>('/media/:key', (request, reply) => serve(request, reply, request.params.key, undefined));
  app.get<{ Params: { key: string; width: string } }>('/media/:key/:width', (request, reply) =>
    serve(request, reply, request.params.key, request.params.width),
  );
};

export default mediaRoutes;
