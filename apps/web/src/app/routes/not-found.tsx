import { Compass } from 'lucide-react';
import { Link } from 'react-router';
import { PageTitle } from '@/components/page-title';
import { Button } from '@/components/ui/button';
import { useCurrentUser } from '@/lib/current-user';

/** Any unknown address, and pages the visitor may not see (docs/product.md#screens-and-routes). */
export function NotFoundRoute() {
  const { data: user } = useCurrentUser();
  return (
    <section className="mx-auto flex w-full max-w-md flex-1 flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <PageTitle>Page not found</PageTitle>
      <div className="flex size-16 items-center justify-center rounded-full bg-secondary">
        <Compass aria-hidden="true" className="size-8 text-secondary-foreground" />
      </div>
      <p className="text-sm font-semibold tracking-widest text-primary uppercase">404</p>
      <h1 className="text-2xl font-bold tracking-tight sm:text-3xl">Page not found</h1>
      <p className="text-muted-foreground">
        {user
          ? 'We couldn’t find that page. It may have moved, or the link may be wrong.'
          : 'We couldn’t find that page. If you have an account, sign in to see your loops.'}
      </p>
      <div className="mt-2 flex flex-wrap justify-center gap-3">
        {user ? (
          <Button asChild size="lg">
            <Link to="/">Go to My Loops</Link>
          </Button>
        ) : (
          <>
            <Button asChild size="lg">
              <Link to="/auth">Sign In</Link>
            </Button>
            <Button asChild size="lg" variant="outline">
              <Link to="/">Go home</Link>
            </Button>
          </>
        )}
      </div>
    </section>
  );
}
