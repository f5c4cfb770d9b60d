import { eq } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import { media } from '../../db/schema';
import { AppError } from '../../errors';
import { mediaStorageFor } from '../../storage/create-storage';
import { STORAGE_KEY } from '../../storage/media-storage';

const NOT_FOUND = 'This photo does not exist or was deleted.';
/** A photo opened on its own can run nothing, load nothing and be framed by nobody. */
export const PHOTO_CSP = "default-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/**
 * GET /media/:key: a photo of an update. The 256-bit key is the capability (newsletter pages and
 * Twilio fetch photos without a session); a deleted update's photos stop being served at once.
 */
const mediaRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { key: string } }>('/media/:key', async (request, reply) => {
    const { key } = request.params;
    if (!STORAGE_KEY.test(key)) throw new AppError('not_found', NOT_FOUND);
    const [row] = await app.ctx.db.select({ contentType: media.contentType }).from(media).where(eq(media.storageKey, key));
    const bytes = row ? await mediaStorageFor(app.ctx.config).get(key) : null;
    if (!row || !bytes) throw new AppError('not_found', NOT_FOUND);
    return reply
      .type(row.contentType)
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', PHOTO_CSP)
      .header('content-disposition', 'inline')
      .header('cache-control', 'private, max-age=86400')
      .send(bytes);
  });
};

export default mediaRoutes;
