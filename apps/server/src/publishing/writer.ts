import type { Clip } from '@loop/shared/media';
import type { NewsletterKind, NewsletterWriterName } from '@loop/shared/newsletters';

/** One update as a writer sees it: plain text as the member sent it, photos as /media/ paths. */
export interface WriterUpdate {
  authorId: number;
  author: { firstName: string; lastName: string; context: string | null };
  content: string;
  createdAt: Date;
  photoUrls: string[];
  /**
   * Voice memos and videos (decision 0023), placed like photos: `![Voice memo from Ada, 0:42](url)`.
   * A voice memo's `transcript` (decision 0024) is quoted beside it.
   */
  clips?: Clip[];
}

/** What an update says: the member's own words, then what their voice memos said (transcribed). */
export function wordsOf(update: Pick<WriterUpdate, 'content' | 'clips'>): string {
  return [update.content, ...(update.clips ?? []).map((c) => c.transcript ?? '')]
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .join('\n\n');
}

/** Everything a writer may use. Updates are in time order. */
export interface NewsletterInput {
  kind: NewsletterKind;
  loop: { name: string; context: string | null; vibe: string[]; timeZone: string };
  period: { start: Date; end: Date };
  updates: WriterUpdate[];
}

export interface WrittenNewsletter {
  title: string;
  /** Markdown; rendered through the sanitizer wherever it is shown. */
  content: string;
  writer: NewsletterWriterName;
  /** True when the model failed and the template writer stood in. */
  fellBack: boolean;
}

export interface NewsletterWriter {
  readonly name: NewsletterWriterName;
  write(input: NewsletterInput): Promise<WrittenNewsletter>;
}
