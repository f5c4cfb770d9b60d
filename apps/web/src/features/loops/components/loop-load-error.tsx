import { RefreshCw, SearchX, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { ApiError, errorText } from '@/lib/api-client';

/** A Loop that could not be shown: gone or not yours (404), or a failed load with a retry. */
export function LoopLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const notFound = error instanceof ApiError && error.status === 404;
  const Icon = notFound ? SearchX : TriangleAlert;
  return (
    <Card role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-secondary">
        <Icon aria-hidden="true" className="size-7 text-secondary-foreground" />
      </div>
      <h1 className="text-xl font-semibold">{notFound ? 'Loop not found' : 'Failed to load loop details'}</h1>
      <p className="max-w-md text-muted-foreground">{errorText(error)}</p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {!notFound && (
          <Button variant="outline" onClick={onRetry}>
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        )}
        <Button asChild>
          <Link to="/">Go to My Loops</Link>
        </Button>
      </div>
    </Card>
  );
}
