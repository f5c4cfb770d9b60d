import { lazy, Suspense } from 'react';
import { Link, useLocation } from 'react-router';
import type { User } from '@loop/shared/auth';
import { LogoMark } from '@/components/logo';
import { Button } from '@/components/ui/button';

// The menu's dropdown (popper, focus handling) is for signed-in people: not in the landing page's download.
const UserMenu = lazy(async () => ({ default: (await import('@/features/auth/components/user-menu')).UserMenu }));

/** The top bar's width: the landing page's, between the app's pages (max-w-5xl) and the admin dashboard's. */
export const HEADER_WIDTH = 'max-w-6xl';

export function TopBar({ user, sessionKnown }: { user: User | null; sessionKnown: boolean }) {
  const { pathname } = useLocation();
  return (
    <header className="sticky top-0 z-40 border-b bg-background/90 backdrop-blur">
      {/* One width on every screen (and the scrollbar's room kept, index.css): the bar never jumps between pages. */}
      <div className={`mx-auto flex h-16 w-full ${HEADER_WIDTH} items-center justify-between gap-4 px-4 sm:px-6`}>
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
