import { eq, lte } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';
import { hashToken } from '../../lib/tokens';

/** Ends a session: its token is useless from now on. */
export async function deleteSession(db: DbOrTx, options: { token: string; secret: string }): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(options.token, options.secret)));
}

/**
 * Deletes sessions past their absolute expiry (the scheduler does it every minute). Idle ones are
 * refused at once by findSessionUser and go when their absolute expiry comes.
 */
export async function deleteExpiredSessions(db: DbOrTx, now: Date): Promise<void> {
  await db.delete(sessions).where(lte(sessions.expiresAt, now));
}
