import type { Newsletter, NewsletterWriterName } from '@loop/shared/newsletters';
import type { NewsletterRow } from './insert-newsletter';

/** A newsletter row as the API answers it. */
export function toNewsletter(row: NewsletterRow): Newsletter {
  return {
    id: row.id,
    loopId: row.loopId,
    kind: row.kind,
    status: row.status,
    urlId: row.urlId,
    title: row.title,
    content: row.content,
    writer: row.writer === 'openai' ? 'openai' : ('template' satisfies NewsletterWriterName),
    fellBack: row.fellBack,
    periodStart: row.periodStart?.toISOString() ?? null,
    periodEnd: row.periodEnd.toISOString(),
    createdAt: row.createdAt.toISOString(),
    sentAt: row.sentAt?.toISOString() ?? null,
    sendAt: row.sendAt?.toISOString() ?? null,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    skippedAt: row.skippedAt?.toISOString() ?? null,
  };
}
