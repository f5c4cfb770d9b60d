import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';
import { verifyPassword } from '../../lib/passwords';

/**
 * The user with this email and password. One message for every failure, so a stranger cannot
 * learn which emails have accounts. Signing in never makes anyone staff.
 */
export async function authenticateUser(db: Db, input: { email: string; password: string }): Promise<typeof users.$inferSelect> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(sql`lower(${users.email})`, input.email))
    .limit(1);
  const ok = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !ok) throw new AppError('unauthorized', 'Invalid email or password');
  return user;
}
