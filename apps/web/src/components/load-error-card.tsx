import { RefreshCw, TriangleAlert, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/api-client';

interface LoadErrorCardProps {
  /** The page-level title (docs/product.md#messages-on-screen), e.g. "Failed to load loop details" or "Loop not found". */
  title: string;
  error: unknown;
  /** Offers "Try again" (not for what retrying cannot fix, such as a 404). */
  onRetry?: (() => void) | undefined;
  icon?: LucideIcon;
  /** The page's own heading (h1) when the card replaces the whole page; else h2. */
  headingLevel?: 1 | 2;
  /** A failure (red) or a plain absence (neutral). */
  tone?: 'failure' | 'absence';
  /** A way out, such as a link back to the dashboard. */
  children?: ReactNode;
}

/** A page that could not load: what failed, the server's message, a retry and a way out. */
export function LoadErrorCard({
  title,
  error,
  onRetry,
  icon: Icon = TriangleAlert,
  headingLevel = 2,
  tone = 'failure',
  children,
}: LoadErrorCardProps) {
  const message = errorText(error);
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <Card role="alert" className="flex flex-col items-center gap-3 px-6 py-12 text-center">
      <div
        className={cn('flex size-14 items-center justify-center rounded-full', tone === 'failure' ? 'bg-destructive/10' : 'bg-secondary')}
      >
        <Icon aria-hidden="true" className={cn('size-7', tone === 'failure' ? 'text-destructive' : 'text-secondary-foreground')} />
      </div>
      <Heading className="text-xl font-semibold">{title}</Heading>
      {message && message !== title && <p className="max-w-md break-words text-muted-foreground">{message}</p>}
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {onRetry && (
          <Button variant="outline" onClick={onRetry}>
            <RefreshCw aria-hidden="true" />
            Try again
          </Button>
        )}
        {children}
      </div>
    </Card>
  );
}
