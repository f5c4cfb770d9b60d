import { eq, sql } from 'drizzle-orm';
import type { NewsletterDelivery } from '@loop/shared/constants';
import type { Config } from '../../config';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema';
import { requestEmailConfirmation } from './confirm-address';

/**
 * The newsletter by e-mail chosen for a person when they are added (decision 0047): by the owner
 * (`addedBy`), or on the join page (the address is typed there, unproven, as well). A person without an
 * account takes the typed address (when they have none and no account uses it) and the choice; an
 * account holder's address and choice stay theirs. The address gets one confirmation e-mail ("Alice
 * added you to Smith Family's newsletter: confirm") and nothing more until it is confirmed; the
 * newsletter itself waits for the member's YES as texts do.
 */
export async function chooseEmailDelivery(
  tx: DbOrTx,
  user: typeof users.$inferSelect,
  email: string,
  delivery: NewsletterDelivery,
  options: { loop: { id: number; name: string }; addedBy: { firstName: string } | null; config: Config; now: Date },
): Promise<typeof users.$inferSelect> {
  if (user.passwordHash !== null) return user;
  const address = email.toLowerCase();
  let current = user;
  if (!user.email) {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(eq(sql`lower(${users.email})`, address))
      .limit(1);
    if (!taken) [current = user] = await tx.update(users).set({ email: address }).where(eq(users.id, user.id)).returning();
  }
  if (current.email?.toLowerCase() !== address) return current;
  [current = user] = await tx.update(users).set({ newsletterDelivery: delivery }).where(eq(users.id, user.id)).returning();
  await requestEmailConfirmation(tx, options.config, {
    userId: user.id,
    now: options.now,
    ...(options.addedBy
      ? { addedBy: { name: options.addedBy.firstName, loopName: options.loop.name, loopId: options.loop.id } }
      : { loop: { name: options.loop.name, id: options.loop.id } }),
  });
  return current;
}
