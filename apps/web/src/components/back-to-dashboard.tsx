import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';

export function BackToDashboard() {
  return (
    <Button asChild variant="ghost" size="sm" className="-ml-3 self-start text-muted-foreground">
      <Link to="/">
        <ArrowLeft aria-hidden="true" />
        Back to Dashboard
      </Link>
    </Button>
  );
}
