import { CloudOff } from 'lucide-react';
import { Button } from '@/components/ui/button';

/** GET /api/user failed for another reason than "signed out": the server is not reachable. */
export function SessionError({ onRetry }: { onRetry: () => void }) {
  return (
    <div className="mx-auto flex max-w-md flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <CloudOff aria-hidden="true" className="size-10 text-muted-foreground" />
      <h1 className="text-xl font-semibold">We couldn’t reach Loop</h1>
      <p className="text-muted-foreground">Check your connection and try again.</p>
      <Button onClick={onRetry}>Try again</Button>
    </div>
  );
}
