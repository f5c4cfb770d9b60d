import { and, eq, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dataExports } from '../../db/schema';
import { AppError, uniqueViolation } from '../../errors';

/**
 * Starts a person's data export: a row the background builder takes (buildDataExports). One at
 * a time per person (a unique index on the building rows): a second request while one is being
 * built is a 429. A new export replaces the one offered before; its file's key is returned for
 * the caller to remove from storage.
 */
export async function requestDataExport(db: Db, userId: number): Promise<{ id: number; replacedKeys: string[] }> {
  try {
    return await db.transaction(async (tx) => {
      const old = await tx
        .delete(dataExports)
        .where(and(eq(dataExports.userId, userId), isNotNull(dataExports.storageKey)))
        .returning({ storageKey: dataExports.storageKey });
      await tx.delete(dataExports).where(and(eq(dataExports.userId, userId), eq(dataExports.status, 'failed')));
      const [row] = await tx.insert(dataExports).values({ userId }).returning({ id: dataExports.id });
      if (!row) throw new Error('no export row');
      return { id: row.id, replacedKeys: old.flatMap((o) => (o.storageKey ? [o.storageKey] : [])) };
    });
  } catch (error) {
    if (uniqueViolation(error) === 'data_exports_one_building_key') {
      throw new AppError('too_many_requests', 'Your data is being gathered already. This page shows the link when it is ready.');
    }
    throw error;
  }
}
