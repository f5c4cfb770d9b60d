import { sql, type SQL } from 'drizzle-orm';
import type { AdminLoopNewsletter } from '@loop/shared/admin';
import { messages, newsletters } from '../../db/schema';

/** A newsletter as the subquery below builds it (PostgreSQL's JSON). */
interface NewsletterJson {
  id: number;
  loop_id: number;
  kind: AdminLoopNewsletter['kind'];
  status: AdminLoopNewsletter['status'];
  sent_at: string | null;
  created_at: string;
  url_id: string;
  fresh_counts: Record<string, number> | null;
}

/** One of a Loop's newsletters, read with its Loop (getLoopDetailAndNewsletters). */
export interface LoopNewsletterRow {
  id: number;
  loopId: number;
  kind: AdminLoopNewsletter['kind'];
  status: AdminLoopNewsletter['status'];
  sentAt: Date | null;
  createdAt: Date;
  urlId: string;
  /** Texts by status, counted in the same statement for newsletters not sent before `countedAfter`; else null. */
  freshCounts: Record<string, number> | null;
}

/**
 * A Loop's newsletters, newest first, as one JSON column; those not yet sent, or sent after
 * `countedAfter`, with their texts counted by status (index messages_newsletter_id_status_idx).
 * Names the Loop by the parameter, as getLoopDetail's own subqueries do.
 */
export function loopNewslettersJson(loopId: number, countedAfter: Date): SQL<NewsletterJson[] | string> {
  return sql<NewsletterJson[] | string>`(
    select coalesce(json_agg(n order by n.created_at desc, n.id desc), '[]'::json) from (
      select ${newsletters.id} as id, ${newsletters.loopId} as loop_id, ${newsletters.kind} as kind, ${newsletters.status} as status,
        ${newsletters.sentAt} as sent_at, ${newsletters.createdAt} as created_at, ${newsletters.urlId} as url_id,
        case when ${newsletters.sentAt} is null or ${newsletters.sentAt} > ${countedAfter.toISOString()}::timestamptz then (
          select coalesce(json_object_agg(s.status, s.count), '{}'::json) from (
            select ${messages.status} as status, count(*) as count from ${messages} where ${messages.newsletterId} = ${newsletters.id} group by ${messages.status}
          ) s
        ) end as fresh_counts
      from ${newsletters} where ${newsletters.loopId} = ${loopId}
    ) n)`;
}

export function toLoopNewsletterRow(n: NewsletterJson): LoopNewsletterRow {
  return {
    id: Number(n.id),
    loopId: Number(n.loop_id),
    kind: n.kind,
    status: n.status,
    sentAt: n.sent_at === null ? null : new Date(n.sent_at),
    createdAt: new Date(n.created_at),
    urlId: n.url_id,
    freshCounts: n.fresh_counts,
  };
}
