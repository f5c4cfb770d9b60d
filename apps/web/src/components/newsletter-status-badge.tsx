import type { NewsletterKind, NewsletterStatus } from '@loop/shared/newsletters';
import { cn } from '@/lib/cn';

const STATUS_LABELS: Record<NewsletterStatus, string> = { draft: 'Draft', sent: 'Sent' };

/** A newsletter's status as a small pill: drafts stand out, approved and sent ones are calm. */
export function StatusBadge({ status, approved = false }: { status: NewsletterStatus; approved?: boolean }) {
  const calm = status !== 'draft' || approved;
  return (
    <span
      className={cn(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
        calm ? 'bg-emerald-100 text-emerald-900' : 'bg-amber-100 text-amber-900',
      )}
    >
      {status === 'draft' && approved ? 'Approved' : STATUS_LABELS[status]}
    </span>
  );
}

/** "Newsletter" or "Sneak peek". */
export function kindLabel(kind: NewsletterKind): string {
  return kind === 'sneak_peek' ? 'Sneak peek' : 'Newsletter';
}
