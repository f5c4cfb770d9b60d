import { lte } from 'drizzle-orm';
import type { AppContext } from '../../context';
import { dataExports } from '../../db/schema';

/** Deletes the exports past their 24 hours, row and file (the scheduler's housekeeping, every minute). */
export async function deleteExpiredExports(ctx: Pick<AppContext, 'db' | 'storage'>, now: Date): Promise<number> {
  const gone = await ctx.db.delete(dataExports).where(lte(dataExports.expiresAt, now)).returning({ storageKey: dataExports.storageKey });
  for (const { storageKey } of gone) if (storageKey) await ctx.storage.delete(storageKey);
  return gone.length;
}
