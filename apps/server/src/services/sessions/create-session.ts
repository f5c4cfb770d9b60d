import type { DbOrTx } from '../../db/client';
import { sessions } from '../../db/schema';
import { hashToken, newToken } from '../../lib/tokens';
import { SESSION_ABSOLUTE_MS } from './session-policy';

/** Starts a new session for a user and returns its token, to be set as the cookie. */
export async function createSession(
  db: DbOrTx,
  options: { userId: number; secret: string; now: Date },
): Promise<{ token: string; expiresAt: Date }> {
  const token = newToken('session');
  const expiresAt = new Date(options.now.getTime() + SESSION_ABSOLUTE_MS);
  await db.insert(sessions).values({
    tokenHash: hashToken(token, options.secret),
    userId: options.userId,
    createdAt: options.now,
    lastSeenAt: options.now,
    expiresAt,
  });
  return { token, expiresAt };
}
