import { and, eq, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { AppError } from '../../errors';

/**
 * Makes `email` free for the account `holderId` (sign-up, Profile). An email an owner typed for a
 * text-only member was never proven by anyone: it gives way (the member keeps everything else).
 * An account's own email does not: the answer is `taken`, a 409 the person acts on by choosing
 * another email (decision 0013: one answer to a proven phone holder).
 */
export async function freeEmail(tx: DbOrTx, email: string, holderId: number | undefined, taken: string): Promise<void> {
  const sameEmail = eq(sql`lower(${users.email})`, email);
  const [other] = await tx
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(holderId === undefined ? sameEmail : and(sameEmail, ne(users.id, holderId)))
    .for('update');
  if (!other) return;
  if (other.passwordHash) throw new AppError('conflict', taken);
  await tx.update(users).set({ email: null }).where(eq(users.id, other.id));
}
