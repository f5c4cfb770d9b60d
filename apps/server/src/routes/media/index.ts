import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { media } from '../../db/schema';
import { AppError } from '../../errors';
import { mediaStorageFor } from '../../storage/create-storage';
import { STORAGE_KEY } from '../../storage/media-storage';

const NOT_FOUND = 'This photo does not exist or was deleted.';
/** A photo opened on its own can run nothing, load nothing and be framed by nobody. */
export const PHOTO_CSP = "default-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/**
 * GET /media/:key (the largest size) and /media/:key/:width (one stored width): a photo of an
 * update. The 256-bit key is the capability (newsletter pages and Twilio fetch photos without a
 * session); a deleted update's photos stop being served at once. Only converted sizes are ever
 * served, never an original as it was sent (decision 0022).
 */
const mediaRoutes: FastifyPluginAsync = async (app) => {
  const servePhoto = async (reply: FastifyReply, key: string, width: string | undefined) => {
    if (!STORAGE_KEY.test(key) || (width !== undefined && !/^[1-9][0-9]{0,4}$/.test(width))) throw new AppError('not_found', NOT_FOUND);
    const [row] = await app.ctx.db.select({ contentType: media.contentType, variants: media.variants }).from(media).where(eq(media.storageKey, key));
    const variant = row && (width === undefined ? row.variants.at(-1) : row.variants.find((v) => v.width === Number(width)));
    const bytes = variant ? await mediaStorageFor(app.ctx.config).get(variant.key) : null;
    if (!row || !bytes) throw new AppError('not_found', NOT_FOUND);
    return reply
      .type(row.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', PHOTO_CSP)
      .header('content-disposition', 'inline')
      .header('cache-control', 'private, max-age=86400')
      .send(bytes);
  };
  app.get<{ Params: { key: string } }>('/media/:key', (request, reply) => servePhoto(reply, request.params.key, undefined));
  app.get<{ Params: { key: string; width: string } }>('/media/:key/:width', (request, reply) => servePhoto(reply, request.params.key, request.params.width));
};

export default mediaRoutes;
