import type { LucideIcon } from 'lucide-react';
import { MessageSquareText, Repeat, UsersRound } from 'lucide-react';
import { Card } from '@/components/ui/card';

interface StatCardsProps {
  totalLoops: number;
  totalMembers: number;
  /** docs/product.md#admin-dashboard: the sum of every Loop's updateCount (the stats call adds them up on the server). */
  totalUpdates: number;
}

export function StatCards({ totalLoops, totalMembers, totalUpdates }: StatCardsProps) {
  return (
    <div className="grid grid-cols-3 gap-3 sm:gap-4">
      <StatCard icon={Repeat} label="Total Loops" value={totalLoops} />
      <StatCard icon={UsersRound} label="Total Members" value={totalMembers} />
      <StatCard icon={MessageSquareText} label="Total Updates" value={totalUpdates} />
    </div>
  );
}

function StatCard({ icon: Icon, label, value }: { icon: LucideIcon; label: string; value: number }) {
  return (
    <Card className="flex flex-col gap-2 p-3 sm:flex-row sm:items-center sm:gap-4 sm:p-5">
      <div className="hidden size-11 shrink-0 items-center justify-center rounded-xl bg-secondary text-secondary-foreground sm:flex">
        <Icon aria-hidden="true" className="size-5" />
      </div>
      <div className="grid gap-0.5">
        <p className="text-xs font-medium text-muted-foreground sm:text-sm">{label}</p>
        <p className="text-2xl font-bold tabular-nums">{value.toLocaleString()}</p>
      </div>
    </Card>
  );
}
