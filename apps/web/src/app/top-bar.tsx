import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import type { User } from '@loop/shared/auth';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';
import { ADMIN_DASHBOARD_WIDTH } from '@/components/page';

// The menu's dropdown (popper, focus handling) is for signed-in people: not in the landing page's download.
const UserMenu = lazy(async () => ({ default: (await import('@/features/auth/components/user-menu')).UserMenu }));

export function TopBar({ user, sessionKnown }: { user: User | null; sessionKnown: boolean }) {
  const { pathname } = useLocation();
  // The landing page's sections and the admin dashboard's tables are wider than the app's pages:
  // line the bar up with what is under it (components/page.tsx, admin-dashboard.tsx).
  const width = pathname === '/' ? 'max-w-6xl' : pathname === '/admin' ? ADMIN_DASHBOARD_WIDTH : 'max-w-5xl';
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur">
      <div className={`mx-auto flex h-16 w-full ${width} items-center justify-between gap-4 px-4 sm:px-6`}>
        <Link
          to="/"
          className="-m-1 flex items-center gap-2 rounded-lg p-1 text-xl font-bold tracking-tight outline-none focus-visible:ring-2 focus-visible:ring-ring"
        >
          <LogoMark />
          Loop
        </Link>
        {sessionKnown &&
          (user ? (
            <Suspense fallback={<span className="size-10" aria-hidden="true" />}>
              <UserMenu user={user} />
            </Suspense>
          ) : (
            pathname !== '/auth' && (
              <Button asChild>
                <Link to="/auth">Sign In</Link>
              </Button>
            )
          ))}
      </div>
    </header>
  );
}
