import { afterEach, vi } from 'vitest';

// A test fails on any console.error it did not expect: errors must never pass silently.
// The calls are kept here, not read from the spy's history: Vitest 5 clears every mock's history
// before each test (clearMocks), which would drop an error logged in a beforeAll hook.
const print = console.error.bind(console);
const logged: unknown[][] = [];
vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
  logged.push(args);
  print(...args);
});
afterEach(() => {
  const calls = logged.splice(0);
  if (calls.length > 0) {
    throw new Error(`Unexpected console.error: ${calls.map((c) => c.map(String).join(' ')).join('\n')}`);
  }
});
