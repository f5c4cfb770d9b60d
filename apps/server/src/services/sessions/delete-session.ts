import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';
import { hashToken } from '../../lib/tokens';

/** Ends a session: its token is useless from now on. */
export async function deleteSession(db: DbOrTx, options: { token: string; secret: string }): Promise<void> {
  await db.delete(sessions).where(eq(sessions.tokenHash, hashToken(options.token, options.secret)));
}
