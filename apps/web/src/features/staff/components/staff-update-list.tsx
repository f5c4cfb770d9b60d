import { ExternalLink } from 'lucide-react';
import type { LoopUpdate } from '@loop/shared/loops';
import { photoSrcset } from '@loop/shared/media';
import { ClipPlayer } from '@/components/clip-player';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { formatDateTime } from '@/lib/format-date';

/**
 * Updates: what members texted, with numbered links to their photos. `total` is the Loop's
 * updateCount: the detail carries only the newest updates of a busy Loop.
 */
export function StaffUpdateList({ updates, total }: { updates: LoopUpdate[]; total: number }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Updates ({Math.max(total, updates.length).toLocaleString()})</CardTitle>
        {updates.length < total && <p className="text-sm text-muted-foreground">Showing the latest {updates.length}.</p>}
      </CardHeader>
      <CardContent>
        {updates.length === 0 ? (
          <p className="rounded-lg bg-muted p-4 text-muted-foreground">No updates yet.</p>
        ) : (
          <ul className="grid gap-3">
            {updates.map((update) => (
              <li key={update.id} className="grid gap-2 rounded-xl border p-4">
                <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5">
                  <p className="font-semibold break-words">
                    {update.user.firstName} {update.user.lastName}
                  </p>
                  <time dateTime={update.createdAt} className="text-sm text-muted-foreground">
                    {formatDateTime(update.createdAt)}
                  </time>
                </div>
                {update.content && <p className="whitespace-pre-wrap break-words">{update.content}</p>}
                {update.clips.map((clip) => (
                  <ClipPlayer key={clip.url} clip={clip} author={`${update.user.firstName} ${update.user.lastName}`} />
                ))}
                {update.photos.length > 0 && (
                  <ul className="flex flex-wrap gap-x-4 gap-y-2">
                    {update.photos.map((photo, index) => (
                      <li key={photo.url}>
                        <a
                          href={photo.url}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="inline-flex items-center gap-2 text-sm font-medium text-primary underline-offset-4 hover:underline"
                        >
                          <img
                            src={photo.url}
                            srcSet={photoSrcset(photo)}
                            sizes="3rem"
                            width={photo.width}
                            height={photo.height}
                            alt=""
                            loading="lazy"
                            decoding="async"
                            className="size-12 rounded-md bg-muted object-cover"
                          />
                          View Media {index + 1}
                          <ExternalLink aria-hidden="true" className="size-3.5" />
                        </a>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
