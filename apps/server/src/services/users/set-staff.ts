import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';

/** Grants or revokes staff rights by email. Returns the user, or null when no account has that email. */
export async function setStaff(
  db: Db,
  email: string,
  isStaff: boolean,
): Promise<{ id: number; email: string | null; wasStaff: boolean } | null> {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .select({ id: users.id, email: users.email, isStaff: users.isStaff })
      .from(users)
      .where(eq(sql`lower(${users.email})`, email.trim().toLowerCase()))
      .for('update');
    if (!user) return null;
    await tx.update(users).set({ isStaff }).where(eq(users.id, user.id));
    return { id: user.id, email: user.email, wasStaff: user.isStaff };
  });
}
