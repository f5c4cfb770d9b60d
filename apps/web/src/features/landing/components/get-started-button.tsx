import { ArrowRight } from 'lucide-react';
import { Link } from 'react-router';
import { Button, type ButtonProps } from '@/components/ui/button';

/** "Get Started for Free!": /auth, opened on Sign Up. */
export function GetStartedButton({ className, variant }: Pick<ButtonProps, 'className' | 'variant'>) {
  return (
    <Button asChild size="lg" variant={variant} className={className}>
      <Link to="/auth" state={{ mode: 'signup' }}>
        Get Started for Free!
        <ArrowRight aria-hidden="true" />
      </Link>
    </Button>
  );
}
