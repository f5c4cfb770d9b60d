import { Check, RefreshCw, Sparkles, TriangleAlert } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { PageSpinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/api-client';
import { useLoops } from '../api/get-loops';
import { CreateLoopDialog } from './create-loop-dialog';
import { LoopCard } from './loop-card';

/** The dashboard's body: a spinner, then the Loop cards, or the empty state (docs/product.md#my-loops-dashboard). */
export function LoopList() {
  const loops = useLoops();
  if (loops.isPending) return <PageSpinner />;
  if (loops.isError) {
    return (
      <Card role="alert" className="flex flex-col items-center gap-3 px-6 py-10 text-center">
        <TriangleAlert aria-hidden="true" className="size-8 text-destructive" />
        <h2 className="text-lg font-semibold">Failed to fetch loops</h2>
        <p className="text-sm text-muted-foreground">{errorText(loops.error)}</p>
        <Button variant="outline" onClick={() => void loops.refetch()}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
      </Card>
    );
  }
  if (loops.data.length === 0) return <EmptyLoops />;
  return (
    <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
      {loops.data.map((loop) => (
        <li key={loop.id}>
          <LoopCard loop={loop} />
        </li>
      ))}
    </ul>
  );
}

function EmptyLoops() {
  return (
    <Card className="flex flex-col items-center gap-4 border-dashed px-6 py-12 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-secondary">
        <Sparkles aria-hidden="true" className="size-7 text-secondary-foreground" />
      </div>
      <h2 className="text-xl font-semibold">Create Your First Loop</h2>
      <ul className="grid gap-2 text-left text-muted-foreground">
        {['Share updates via SMS', 'Connect with your group'].map((text) => (
          <li key={text} className="flex items-center gap-2">
            <Check aria-hidden="true" className="size-4 text-primary" />
            {text}
          </li>
        ))}
      </ul>
      <CreateLoopDialog size="lg" />
    </Card>
  );
}
