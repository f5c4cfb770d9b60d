import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { SIGNED_IN_HINT_COOKIE, type User } from '@loop/shared/auth';
import type { ApiConfig } from '@loop/shared/simulator';
import { routes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { simulatorConfig } from './fixtures';
import { server } from './server';

export interface RenderRouteOptions {
  /** The signed-in user; null (the default) answers GET /api/user with 401. */
  user?: User | null;
  /**
   * Whether the browser holds the session's readable hint cookie (SIGNED_IN_HINT_COOKIE): true by
   * default, so the app asks GET /api/user; false, as for a visitor who never signed in.
   */
  hint?: boolean;
  /** GET /api/config's answer; default: texts and e-mail simulated. */
  config?: ApiConfig;
}

/** Every request the app made during the test, as "GET /api/user". */
export const requests: string[] = [];

/**
 * Renders the real route table at `path` in a memory router, with the app's query client,
 * answering the session and config calls; tests add their own handlers with `server.use`.
 */
export function renderRoute(path: string, { user = null, config = simulatorConfig, hint = true }: RenderRouteOptions = {}) {
  requests.length = 0;
  document.cookie = hint
    ? `${SIGNED_IN_HINT_COOKIE}=1; path=/`
    : `${SIGNED_IN_HINT_COOKIE}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  server.events.removeAllListeners('request:start');
  server.events.on('request:start', ({ request }) => {
    requests.push(`${request.method} ${new URL(request.url).pathname}`);
  });
  server.use(
    http.get('*/api/user', () => (user ? HttpResponse.json(user) : HttpResponse.json({ message: 'Not signed in' }, { status: 401 }))),
    http.get('*/api/config', () => HttpResponse.json(config)),
  );
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const queryClient = createQueryClient();
  const view = render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return { ...view, router, queryClient };
}
