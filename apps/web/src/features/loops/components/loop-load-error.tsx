import { SearchX, TriangleAlert } from 'lucide-react';
import { Link } from 'react-router';
import { LoadErrorCard } from '@/components/load-error-card';
import { Button } from '@/components/ui/button';
import { ApiError } from '@/lib/api-client';

/** A Loop that could not be shown: gone or not yours (404), or a failed load with a retry. */
export function LoopLoadError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const notFound = error instanceof ApiError && error.status === 404;
  return (
    <LoadErrorCard
      title={notFound ? 'Loop not found' : 'Failed to load loop details'}
      error={error}
      onRetry={notFound ? undefined : onRetry}
      icon={notFound ? SearchX : TriangleAlert}
      headingLevel={1}
      tone="absence"
    >
      <Button asChild>
        <Link to="/">Go to My Loops</Link>
      </Button>
    </LoadErrorCard>
  );
}
