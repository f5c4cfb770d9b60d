import type { LoopDetail } from '@loop/shared/loops';
import { formatDate } from '@/lib/format-date';
import { InviteButton } from './invite-button';

/** The Loop's name, "Created on {date}", and (owner and staff) Generate Invite Link. */
export function LoopHeader({ loop }: { loop: LoopDetail }) {
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div className="grid min-w-0 gap-1">
        <h1 className="text-3xl font-bold tracking-tight break-words">{loop.name}</h1>
        <p className="text-muted-foreground">Created on {formatDate(loop.createdAt)}</p>
      </div>
      {loop.role !== 'member' && <InviteButton loopId={loop.id} loopName={loop.name} />}
    </div>
  );
}
