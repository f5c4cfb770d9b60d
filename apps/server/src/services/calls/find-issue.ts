import { and, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { newsletters } from '../../db/schema';

/** A Loop's sent newsletter, `back` issues before the latest (0: the latest); null when there is none that far back. */
export async function findIssue(db: DbOrTx, loopId: number, back: number): Promise<{ id: number; content: string } | null> {
  const [issue] = await db
    .select({ id: newsletters.id, content: newsletters.content })
    .from(newsletters)
    .where(and(eq(newsletters.loopId, loopId), eq(newsletters.status, 'sent'), eq(newsletters.kind, 'newsletter')))
    .orderBy(desc(newsletters.sentAt), desc(newsletters.id))
    .limit(1)
    .offset(back);
  return issue ?? null;
}
