import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/**
 * The network edge of every web test: handlers per test with `server.use(...)`. My Loops asks for
 * the person's invitations on every visit, the sign-up page for a sign-up this browser started, Profile for the person's data export, and a Loop's
 * Members tab (for its owner) for its group messages: none unless a test says otherwise.
 */
export const server = setupServer(
  http.get('*/api/loops/:id/group-messages', () => HttpResponse.json([])),
  http.get('*/api/invitations', () => HttpResponse.json([])),
  http.get('*/api/register/pending', () => HttpResponse.json({ signUp: null })),
  http.get('*/api/user/export', () =>
    HttpResponse.json({ status: 'none', requestedAt: null, readyAt: null, expiresAt: null, bytes: null, downloadUrl: null }),
  ),
);

/** A handler that never answers: the screen stays in its loading state for the whole test. */
export const neverAnswer = () => delay('infinite');
