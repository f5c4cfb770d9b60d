import { RefreshCw, TriangleAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { errorText } from '@/lib/api-client';

interface LoadErrorCardProps {
  /** The page-level title (docs/product.md#messages-on-screen), e.g. "Failed to load loop details". */
  title: string;
  error: unknown;
  onRetry: () => void;
  /** A way out, such as a link back to the dashboard. */
  children?: ReactNode;
}

/** A page that could not load: what failed, the server's message, and a retry. */
export function LoadErrorCard({ title, error, onRetry, children }: LoadErrorCardProps) {
  const message = errorText(error);
  return (
    <Card role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <div className="flex size-14 items-center justify-center rounded-full bg-destructive/10">
        <TriangleAlert aria-hidden="true" className="size-7 text-destructive" />
      </div>
      <h2 className="text-xl font-semibold">{title}</h2>
      {message && message !== title && <p className="max-w-md break-words text-muted-foreground">{message}</p>}
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        <Button variant="outline" onClick={onRetry}>
          <RefreshCw aria-hidden="true" />
          Try again
        </Button>
        {children}
      </div>
    </Card>
  );
}
