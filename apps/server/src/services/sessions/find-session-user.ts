import { and, eq, gt } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { hashToken } from '../../lib/tokens';
import { SESSION_IDLE_MS, SESSION_TOUCH_MS } from './session-policy';

export type SessionUser = typeof users.$inferSelect;

/** The user behind a session token, or null when the session is unknown, idle too long or expired. */
export async function findSessionUser(db: Db, options: { token: string; secret: string; now: Date }): Promise<SessionUser | null> {
  const { now } = options;
  const tokenHash = hashToken(options.token, options.secret);
  const [row] = await db
    .select({ user: users, sessionId: sessions.id, lastSeenAt: sessions.lastSeenAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenHash),
        gt(sessions.expiresAt, now),
        gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
      ),
    )
    .limit(1);
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > SESSION_TOUCH_MS) {
    await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, row.sessionId));
  }
  return row.user;
}
