import { and, asc, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { NewsletterKind } from '@loop/shared/newsletters';
import type { Clip } from '@loop/shared/media';
import type { DbOrTx } from '../../db/client';
import { type loops, media, members, updates, users } from '../../db/schema';
import { clipOf, MEDIA_FILE_COLUMNS } from '../../media/find-media';
import { authorName } from '../members/to-loop-member';
import type { NewsletterInput, WriterUpdate } from '../../publishing/writer';
import { STORAGE_KEY, mediaUrl } from '../../storage/media-storage';

type LoopRow = typeof loops.$inferSelect;

/** What a writer needs: the Loop and its updates in [start, end), oldest first, with their media. */
export async function loadNewsletterInput(
  db: DbOrTx,
  input: { loop: LoopRow; kind: NewsletterKind; start: Date; end: Date },
): Promise<NewsletterInput> {
  const { loop } = input;
  const rows = await db
    .select({
      update: updates,
      firstName: users.firstName,
      lastName: users.lastName,
      hasAccount: sql<boolean>`${users.passwordHash} is not null`,
      membership: { status: members.status, firstName: members.firstName, lastName: members.lastName, context: members.context },
    })
    .from(updates)
    .innerJoin(users, eq(users.id, updates.userId))
    // A person who has left keeps their updates; they just have no member context any more.
    .leftJoin(members, and(eq(members.loopId, updates.loopId), eq(members.userId, updates.userId)))
    .where(and(eq(updates.loopId, loop.id), gte(updates.createdAt, input.start), lt(updates.createdAt, input.end)))
    .orderBy(asc(updates.createdAt), asc(updates.id));

  const stored = rows.length
    ? await db
        .select({ updateId: media.updateId, ...MEDIA_FILE_COLUMNS })
        .from(media)
        .where(
          inArray(
            media.updateId,
            rows.map((r) => r.update.id),
          ),
        )
        .orderBy(asc(media.updateId), asc(media.position), asc(media.id))
    : [];
  const photoUrlsByUpdate = new Map<number, string[]>();
  const clipsByUpdate = new Map<number, Clip[]>();
  for (const row of stored) {
    // Keys are ours, but a media URL goes into Markdown: only the exact key shape may.
    if (!STORAGE_KEY.test(row.storageKey) || row.updateId === null) continue;
    const clip = clipOf(row);
    if (clip) clipsByUpdate.set(row.updateId, [...(clipsByUpdate.get(row.updateId) ?? []), clip]);
    else photoUrlsByUpdate.set(row.updateId, [...(photoUrlsByUpdate.get(row.updateId) ?? []), mediaUrl(row.storageKey)]);
  }

  const list: WriterUpdate[] = rows.map(({ update, membership, ...author }) => ({
    authorId: update.userId,
    author: { ...authorName(author, membership), context: membership?.context ?? null },
    content: update.content,
    createdAt: update.createdAt,
    photoUrls: photoUrlsByUpdate.get(update.id) ?? [],
    clips: clipsByUpdate.get(update.id) ?? [],
  }));
  return {
    kind: input.kind,
    loop: { name: loop.name, context: loop.context, vibe: loop.vibe, timeZone: loop.timeZone },
    period: { start: input.start, end: input.end },
    updates: list,
  };
}
