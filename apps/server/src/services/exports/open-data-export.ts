import type { Readable } from 'node:stream';
import { and, eq, gt } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { dataExports } from '../../db/schema';
import { AppError } from '../../errors';
import { exportTokenMatches } from './export-link';

/**
 * The zip of a ready export, as a stream, for the person it belongs to and the right token only;
 * anyone else's, a wrong token and an expired export are the same 404.
 */
export async function openDataExport(
  ctx: Pick<AppContext, 'db' | 'storage' | 'config'>,
  input: { userId: number; exportId: number; token: string; now: Date },
): Promise<{ stream: Readable; bytes: number | null; readyAt: Date }> {
  const missing = new AppError('not_found', 'This download has expired or is not yours. Ask for your data again on your Profile page.');
  const [row] = await ctx.db
    .select()
    .from(dataExports)
    .where(
      and(
        eq(dataExports.id, input.exportId),
        eq(dataExports.userId, input.userId),
        eq(dataExports.status, 'ready'),
        gt(dataExports.expiresAt, input.now),
      ),
    );
  if (!row?.storageKey || !row.readyAt || !exportTokenMatches(input.token, row.id, row.storageKey, ctx.config.SESSION_SECRET))
    throw missing;
  const stream = await ctx.storage.getStream(row.storageKey);
  if (!stream) throw missing;
  return { stream, bytes: row.bytes, readyAt: row.readyAt };
}
