import { eq, sql } from 'drizzle-orm';
import { vibeQuestions, type ReminderQuestionsAnswer } from '@loop/shared/reminder-questions';
import type { DbOrTx } from '../../db/client';
import { loopReminders, type loops } from '../../db/schema';

type Loop = Pick<typeof loops.$inferSelect, 'id' | 'vibe'>;

/** The owner's own reminder questions, the vibes' ones and the last one asked (decision 0043). */
export async function getReminderQuestions(db: DbOrTx, loop: Loop): Promise<ReminderQuestionsAnswer> {
  const [row] = await db.select().from(loopReminders).where(eq(loopReminders.loopId, loop.id));
  return { questions: row?.ownQuestions ?? [], vibeQuestions: vibeQuestions(loop.vibe), lastQuestion: row?.lastQuestion ?? null };
}

/** Replaces the owner's own questions (already checked by ownQuestionsSchema). */
export async function saveReminderQuestions(db: DbOrTx, loop: Loop, questions: string[]): Promise<ReminderQuestionsAnswer> {
  await db
    .insert(loopReminders)
    .values({ loopId: loop.id, ownQuestions: questions })
    .onConflictDoUpdate({ target: loopReminders.loopId, set: { ownQuestions: sql`excluded.own_questions` } });
  return getReminderQuestions(db, loop);
}
