import { Navigate, Outlet } from 'react-router';
import { isStaff, SignedInUserContext, useCurrentUser } from '@/lib/current-user';
import { NotFoundRoute } from './routes/not-found';

// The layout draws no page before the session is known, so `data` is a user or null here.

/** Pages of signed-in users; signed-out visitors get the not-found screen (docs/product.md#screens-and-routes). */
export function RequireUser() {
  const { data: user } = useCurrentUser();
  if (!user) return <NotFoundRoute />;
  return (
    <SignedInUserContext value={user}>
      <Outlet />
    </SignedInUserContext>
  );
}

/** Staff pages; everyone else gets the not-found screen. */
export function RequireStaff() {
  const { data: user } = useCurrentUser();
  return isStaff(user) ? <Outlet /> : <NotFoundRoute />;
}

/** /auth is for signed-out visitors: a signed-in user goes to "/". */
export function RequireSignedOut() {
  const { data: user } = useCurrentUser();
  return user ? <Navigate to="/" replace /> : <Outlet />;
}
