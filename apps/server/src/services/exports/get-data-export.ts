import { and, desc, eq, gt, isNull, or } from 'drizzle-orm';
import type { DataExport } from '@loop/shared/account-data';
import type { DbOrTx } from '../../db/client';
import { dataExports } from '../../db/schema';
import { exportDownloadUrl } from './export-link';

/** The person's latest export still offered (an expired one is as good as gone), as GET /api/user/export answers it. */
export async function getDataExport(db: DbOrTx, userId: number, now: Date, secret: string): Promise<DataExport> {
  const [row] = await db
    .select()
    .from(dataExports)
    .where(and(eq(dataExports.userId, userId), or(isNull(dataExports.expiresAt), gt(dataExports.expiresAt, now))))
    .orderBy(desc(dataExports.id))
    .limit(1);
  if (!row) return { status: 'none', requestedAt: null, readyAt: null, expiresAt: null, bytes: null, downloadUrl: null };
  const ready = row.status === 'ready' && row.storageKey !== null;
  return {
    status: row.status,
    requestedAt: row.createdAt.toISOString(),
    readyAt: row.readyAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    bytes: row.bytes,
    downloadUrl: ready && row.storageKey ? exportDownloadUrl(row.id, row.storageKey, secret) : null,
  };
}
