import { Suspense } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { PageSpinner } from '@/components/ui/spinner';
import { Toaster } from '@/components/ui/toaster';
import { useCurrentUser } from '@/lib/current-user';
import { SessionError } from './session-error';
import { TopBar } from './top-bar';

/** Top bar and page. No page draws before the session is known (docs/product.md#screens-and-routes: a spinner meanwhile). */
export function AppLayout() {
  const session = useCurrentUser();
  const known = session.data !== undefined;
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only z-50 rounded-lg bg-card px-4 py-2 font-medium shadow focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
      >
        Skip to content
      </a>
      <TopBar user={session.data ?? null} sessionKnown={known} />
      <main id="main" tabIndex={-1} className="flex flex-1 flex-col outline-none">
        {known ? (
          <Suspense fallback={<PageSpinner />}>
            <Outlet />
          </Suspense>
        ) : session.isError ? (
          <SessionError onRetry={() => void session.refetch()} />
        ) : (
          <PageSpinner />
        )}
      </main>
      <Toaster />
      <ScrollRestoration />
    </div>
  );
}
