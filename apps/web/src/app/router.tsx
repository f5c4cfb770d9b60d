import { lazy, type ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { SignedInUserContext, useCurrentUser } from '@/lib/current-user';
import { RequireStaff, RequireSignedOut, RequireUser } from './guards';
import { AppLayout } from './layout';
import { RouteError } from './route-error';
import { LandingRoute } from './routes/landing';
import { NotFoundRoute } from './routes/not-found';

/** A page in its own chunk, loaded the first time it shows. */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return lazy(async () => ({ default: pick(await load()) }));
}

// Forms (zod, react-hook-form, phone metadata) and staff pages are not needed to draw "/".
// Nor is the signed-in dashboard (its dialogs): the landing page's first download stays small.
const DashboardRoute = lazyPage(
  () => import('./routes/dashboard'),
  (m) => m.DashboardRoute,
);
const GuideRoute = lazyPage(
  () => import('./routes/guide'),
  (m) => m.GuideRoute,
);
const AuthRoute = lazyPage(
  () => import('./routes/auth'),
  (m) => m.AuthRoute,
);
const JoinRoute = lazyPage(
  () => import('./routes/join'),
  (m) => m.JoinRoute,
);
const LoopDetailRoute = lazyPage(
  () => import('./routes/loop-detail'),
  (m) => m.LoopDetailRoute,
);
const LoopNewsletterRoute = lazyPage(
  () => import('./routes/loop-newsletter'),
  (m) => m.LoopNewsletterRoute,
);
const ProfileRoute = lazyPage(
  () => import('./routes/profile'),
  (m) => m.ProfileRoute,
);
const SimulatorRoute = lazyPage(
  () => import('./routes/simulator'),
  (m) => m.SimulatorRoute,
);
const MailSimulatorRoute = lazyPage(
  () => import('./routes/mail-simulator'),
  (m) => m.MailSimulatorRoute,
);
const AdminDashboardRoute = lazyPage(
  () => import('./routes/admin/admin-dashboard'),
  (m) => m.AdminDashboardRoute,
);
const AdminLoopRoute = lazyPage(
  () => import('./routes/admin/admin-loop'),
  (m) => m.AdminLoopRoute,
);
const NewsletterEditorRoute = lazyPage(
  () => import('./routes/admin/newsletter-editor'),
  (m) => m.NewsletterEditorRoute,
);

/** "/" is the landing page when signed out and My Loops when signed in. */
function HomeRoute() {
  const { data: user } = useCurrentUser();
  if (!user) return <LandingRoute />;
  return (
    <SignedInUserContext value={user}>
      <DashboardRoute />
    </SignedInUserContext>
  );
}

/** The route table of docs/product.md#screens-and-routes (tests render it in a memory router). */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { index: true, element: <HomeRoute /> },
          { element: <RequireSignedOut />, children: [{ path: 'auth', element: <AuthRoute /> }] },
          { path: 'join/:code', element: <JoinRoute /> },
          { path: 'guide', element: <GuideRoute /> },
          {
            element: <RequireUser />,
            children: [
              { path: 'loops/:id', element: <LoopDetailRoute /> },
              { path: 'loops/:id/newsletters/:newsletterId', element: <LoopNewsletterRoute /> },
              { path: 'profile', element: <ProfileRoute /> },
              { path: 'simulator', element: <SimulatorRoute /> },
              { path: 'simulator/mail', element: <MailSimulatorRoute /> },
              {
                element: <RequireStaff />,
                children: [
                  { path: 'admin', element: <AdminDashboardRoute /> },
                  { path: 'admin/loops/:id', element: <AdminLoopRoute /> },
                  { path: 'admin/loops/:loopId/newsletters/:newsletterId', element: <NewsletterEditorRoute /> },
                ],
              },
            ],
          },
          { path: '*', element: <NotFoundRoute /> },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
