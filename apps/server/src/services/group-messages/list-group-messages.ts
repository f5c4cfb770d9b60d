import { and, desc, eq, sql } from 'drizzle-orm';
import type { GroupMessageSummary } from '@loop/shared/group-messages';
import type { DbOrTx } from '../../db/client';
import { groupMessages, messages } from '../../db/schema';
import type { GroupMessageRow } from './queue-group-message';

/** How many group messages the Loop page lists, newest first. */
export const GROUP_MESSAGE_LIST_LIMIT = 50;

/**
 * A Loop's group messages, newest first, each with its delivery counted from its texts in the
 * messages table (by their key prefix; decision 0042). `onlyId` narrows it to one.
 */
export async function listGroupMessages(db: DbOrTx, loopId: number, onlyId?: number): Promise<GroupMessageSummary[]> {
  // Qualified by hand: drizzle names a column of the selected table unqualified, which inside
  // this subquery would be the text's own.
  const texts = (statuses: string[]) =>
    sql<number>`(select count(*) from ${messages} m where m.loop_id = "group_messages"."loop_id" and m.kind = 'group_message'
      and m.direction = 'outbound' and m.idempotency_key like 'group_message:g' || "group_messages"."id" || ':%'
      and m.status in (${sql.join(
        statuses.map((s) => sql`${s}`),
        sql`, `,
      )}))`.mapWith(Number);
  const rows = await db
    .select({
      row: groupMessages,
      waiting: texts(['queued', 'sending']),
      sent: texts(['sent']),
      delivered: texts(['delivered']),
      failed: texts(['failed', 'undelivered']),
    })
    .from(groupMessages)
    .where(and(eq(groupMessages.loopId, loopId), onlyId === undefined ? undefined : eq(groupMessages.id, onlyId)))
    .orderBy(desc(groupMessages.createdAt), desc(groupMessages.id))
    .limit(GROUP_MESSAGE_LIST_LIMIT);
  return rows.map(({ row, ...delivery }) => toSummary(row, delivery));
}

export function toSummary(row: GroupMessageRow, delivery: GroupMessageSummary['delivery']): GroupMessageSummary {
  return {
    id: row.id,
    message: row.message,
    senderName: row.senderName,
    status: row.status,
    sendAt: row.sendAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    textsQueued: row.textsQueued,
    delivery,
  };
}
