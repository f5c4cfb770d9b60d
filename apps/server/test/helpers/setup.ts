import { afterAll, afterEach, vi } from 'vitest';

// A test fails on any console.error it did not expect: errors must never pass silently.
// The calls are kept here, not read from the spy's history: Vitest 5 clears every mock's history
// before each test (clearMocks), which would drop an error logged in a beforeAll hook.
const print = console.error.bind(console);
const logged: unknown[][] = [];
const spy = vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  logged.push(args);
  print(...args);
});
afterEach(() => {
  const calls = logged.splice(0);
  if (calls.length > 0) {
    throw new Error(`Unexpected console.error: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`);
  }
});

// The test files of a worker share its process and the libraries' modules (vitest.config.ts:
// isolate false, decision 0046). Each file still starts as in a process of its own: Loop's own
// modules are evaluated again, the environment is as it was (a file may set TMPDIR), and the
// next file spies on the real console.error.
const env = { ...process.env };
afterAll(() => {
  spy.mockRestore();
  for (const name of Object.keys(process.env)) if (!(name in env)) delete process.env[name];
  Object.assign(process.env, env);
  vi.resetModules();
});
