import { and, asc, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters, reactions, users } from '../../db/schema';

/** The longest reaction kept; a longer one would not be a reaction (reaction-words.ts allows five words). */
const REACTION_MAX_CHARS = 160;

/** The emoji a signed-in member can tap under an issue on its page. */
export const PAGE_REACTIONS = ['❤️', '👏', '😂', '😮', '😢', '🎉'] as const;

/** One reaction as the page and the owner see it: the first name and what they sent. */
export interface ShownReaction {
  firstName: string;
  body: string;
  userId: number;
}

/** Keeps a text's or e-mail's reaction under each of these newsletters (decision 0056); the same twice is kept once. */
export async function storeReactions(
  tx: DbOrTx,
  input: { newsletterIds: number[]; userId: number; body: string; messageId: number; at: Date },
): Promise<void> {
  const body = input.body.trim().slice(0, REACTION_MAX_CHARS);
  if (input.newsletterIds.length === 0) return;
  await tx
    .insert(reactions)
    .values(
      input.newsletterIds.map((newsletterId) => ({
        newsletterId,
        userId: input.userId,
        body,
        messageId: input.messageId,
        createdAt: input.at,
      })),
    )
    .onConflictDoNothing();
}

/** A newsletter's reactions, oldest first, with each member's first name only. */
export async function listReactions(db: DbOrTx, newsletterId: number): Promise<ShownReaction[]> {
  const shown = await listReactionsOf(db, [newsletterId]);
  return shown.map(({ newsletterId: _, ...reaction }) => reaction);
}

/** The reactions of several newsletters at once (the owner's list of issues), oldest first. */
export async function listReactionsOf(db: DbOrTx, newsletterIds: readonly number[]): Promise<(ShownReaction & { newsletterId: number })[]> {
  if (newsletterIds.length === 0) return [];
  return db
    .select({ newsletterId: reactions.newsletterId, firstName: users.firstName, body: reactions.body, userId: reactions.userId })
    .from(reactions)
    .innerJoin(users, eq(users.id, reactions.userId))
    .where(inArray(reactions.newsletterId, [...newsletterIds]))
    .orderBy(asc(reactions.createdAt), asc(reactions.id));
}

/**
 * A member's tap on an emoji under a sent newsletter: on, or off when they had it already.
 * The caller checked that they are an active member of its Loop. False: no such sent newsletter.
 */
export async function toggleReaction(
  db: DbOrTx,
  input: { newsletterId: number; loopId: number; userId: number; emoji: string },
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [issue] = await tx
      .select({ id: newsletters.id })
      .from(newsletters)
      .where(and(eq(newsletters.id, input.newsletterId), eq(newsletters.loopId, input.loopId), eq(newsletters.status, 'sent')));
    if (!issue) return false;
    const mine = and(eq(reactions.newsletterId, issue.id), eq(reactions.userId, input.userId), eq(reactions.body, input.emoji));
    const removed = await tx.delete(reactions).where(mine).returning({ id: reactions.id });
    if (removed.length === 0)
      await tx.insert(reactions).values({ newsletterId: issue.id, userId: input.userId, body: input.emoji }).onConflictDoNothing();
    return true;
  });
}
