import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { server } from './server';

// Pages are lazy chunks: their first import in a test run takes a moment on a busy machine.
configure({ asyncUtilTimeout: 10_000 });

// jsdom lacks these; Radix and the layout code call them.
if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener() {},
      removeEventListener() {},
      addListener() {},
      removeListener() {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
window.HTMLElement.prototype.scrollIntoView ??= function scrollIntoView() {};
window.HTMLElement.prototype.hasPointerCapture ??= () => false;
window.HTMLElement.prototype.releasePointerCapture ??= () => {};
window.scrollTo = () => {};
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
};

// Any request no test answered is a failure, except to a test's own real server on 127.0.0.1
// (the API client's tests talk real HTTP).
beforeAll(() =>
  server.listen({
    onUnhandledRequest(request, print) {
      if (new URL(request.url).hostname !== '127.0.0.1') print.error();
    },
  }),
);
afterAll(() => server.close());

// The test files share one jsdom window and the libraries' modules (vitest.config.ts: isolate
// false). Each file still starts like a fresh page: Loop's own modules are evaluated again (their
// state, as the toast list or a prepared proof-of-work, does not carry over), storage and
// cookies are emptied.
afterAll(() => {
  vi.resetModules();
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
  }
});

/** console.error calls a test said it expects (see `expectConsoleError`). */
let allowed: RegExp[] = [];
let errors: string[] = [];

/** Lets the current test log a console.error matching `pattern` (e.g. a thrown route error). */
export function expectConsoleError(pattern: RegExp) {
  allowed.push(pattern);
}

beforeEach(() => {
  allowed = [];
  errors = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    const text = args.map((arg) => (arg instanceof Error ? (arg.stack ?? arg.message) : String(arg))).join(' ');
    if (!allowed.some((pattern) => pattern.test(text))) errors.push(text);
  });
});

// A test that logs an unexpected console.error fails: React warnings, failed prop types, act() misuse.
afterEach(() => {
  cleanup();
  server.resetHandlers();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
  if (errors.length > 0) {
    const logged = errors.join('\n---\n');
    errors = [];
    throw new Error(`Unexpected console.error during the test:\n${logged}`);
  }
});
