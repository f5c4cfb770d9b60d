import { ChevronRight, MessageSquareText, PauseCircle, UsersRound } from 'lucide-react';
import { Link } from 'react-router';
import type { LoopSummary } from '@loop/shared/loops';

function count(n: number, one: string, many: string) {
  return `${n} ${n === 1 ? one : many}`;
}

/** A Loop on the dashboard: name, "Paused" when it is, optional context, and a link to its page. */
export function LoopCard({ loop }: { loop: LoopSummary }) {
  return (
    <Link
      to={`/loops/${loop.id}`}
      className="group flex h-full flex-col gap-3 rounded-2xl border bg-card p-5 text-card-foreground shadow-sm transition-[box-shadow,border-color] outline-none hover:border-primary/40 hover:shadow-md focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
    >
      <div className="flex items-start justify-between gap-3">
        <h2 className="min-w-0 text-lg leading-tight font-semibold tracking-tight break-words">{loop.name}</h2>
        {loop.paused && (
          <span className="ml-auto inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-50 px-2 py-0.5 text-xs font-medium text-amber-900">
            <PauseCircle aria-hidden="true" className="size-3.5" />
            Paused
          </span>
        )}
        <ChevronRight
          aria-hidden="true"
          className="mt-0.5 size-5 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5 group-hover:text-primary"
        />
      </div>
      {loop.context && <p className="line-clamp-3 text-sm break-words text-muted-foreground">{loop.context}</p>}
      <div className="mt-auto flex flex-wrap gap-x-4 gap-y-1 pt-1 text-sm text-muted-foreground">
        <span className="inline-flex items-center gap-1.5">
          <UsersRound aria-hidden="true" className="size-4" />
          {count(loop.memberCount, 'member', 'members')}
        </span>
        <span className="inline-flex items-center gap-1.5">
          <MessageSquareText aria-hidden="true" className="size-4" />
          {count(loop.updateCount, 'update', 'updates')}
        </span>
      </div>
    </Link>
  );
}
