import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/api-client';
import { formatDateTime } from '@/lib/format-date';
import { useInviteStatus } from '../api/get-invite-status';

const STATUS: Record<string, string> = { active: 'Joined', pending: 'Invited, no answer yet', declined: 'Declined' };

/**
 * Who joined through the Loop's invite links this week (decision 0053): a leaked link shows itself
 * here, and "Make a new link" stops it.
 */
export function InviteJoins({ loopId }: { loopId: number }) {
  const query = useInviteStatus(loopId, true);
  if (query.isPending) return <Spinner />;
  if (query.isError) return <p className="text-sm text-destructive">{errorText(query.error)}</p>;
  const { recentJoins, limits } = query.data;
  return (
    <section aria-labelledby="invite-joins" className="grid gap-2">
      <h3 id="invite-joins" className="text-sm font-medium">
        Joined through your invite links this week
      </h3>
      {recentJoins.length === 0 ? (
        <p className="text-sm text-muted-foreground">Nobody yet.</p>
      ) : (
        <ul className="max-h-40 divide-y overflow-y-auto rounded-md border text-sm">
          {recentJoins.map((join) => (
            <li key={join.memberId} className="flex flex-wrap justify-between gap-x-3 px-3 py-1.5">
              <span className="font-medium">
                {join.firstName} {join.lastName}
              </span>
              <span className="text-muted-foreground">
                {STATUS[join.status] ?? join.status} · {formatDateTime(join.joinedAt)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <p className="text-sm text-muted-foreground">
        At most {limits.perHour} people an hour and {limits.perDay} a day can join through one link. Someone you don't know? Make a new
        link: this one stops working at once.
      </p>
    </section>
  );
}
