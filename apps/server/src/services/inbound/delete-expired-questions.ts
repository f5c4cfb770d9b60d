import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { consentQuestions, erasureRequests } from '../../db/schema';

/**
 * Forgets "which Loop?" questions no number can answer any more (decision 0033), and DELETE
 * requests no longer open (decision 0045): a phone is not kept for nothing.
 */
export async function deleteExpiredQuestions(db: Db, now: Date): Promise<void> {
  await db.delete(consentQuestions).where(sql`${consentQuestions.expiresAt} <= ${now.toISOString()}::timestamptz`);
  await db.delete(erasureRequests).where(sql`${erasureRequests.expiresAt} <= ${now.toISOString()}::timestamptz`);
}
