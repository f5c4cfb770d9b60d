import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The slow server tests (decision 0046): fault tests that stop and start processes and
 * databases, fuzz and property tests, tests that run several server processes, and long
 * simulations named `*.slow.test.ts` (decision 0066). `npm test`
 * leaves them to their own project, run by `npm run test:slow` (and by CI, .ci/run).
 */
const slowServerTests = [
  'test/faults/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
  'test/**/*-processes.test.ts',
  'test/**/*.property.test.ts',
  'test/**/*.slow.test.ts',
];

const server = {
  root: 'apps/server',
  setupFiles: ['test/helpers/setup.ts'],
  // Makes the migrated PGlite template once, before the workers start.
  globalSetup: ['test/helpers/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  test: {
    // Vitest's default for `run` is one worker fewer than the cores: a single worker on a 2-core
    // machine. The server tests spend much of their time waiting (HTTP, timers, child processes),
    // so one worker per core keeps both cores busy (decision 0046).
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        test: {
          name: 'shared',
          root: 'packages/shared',
          include: ['src/**/*.test.ts'],
        },
      },
      {
        test: {
          ...server,
          name: 'server',
          // The files share their worker's process and libraries instead of a new process each
          // (decision 0046); test/helpers/setup.ts evaluates Loop's own modules again per file.
          isolate: false,
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...slowServerTests],
        },
      },
      {
        test: {
          ...server,
          name: 'server-slow',
          include: slowServerTests,
        },
      },
      'apps/web/vitest.config.ts',
    ],
  },
});
