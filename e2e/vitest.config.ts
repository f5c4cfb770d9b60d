import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['tests/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 300_000,
    // One Chromium and one server per file; files run one after another on a 2-core machine.
    fileParallelism: false,
  },
});
