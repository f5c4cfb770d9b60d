import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) },
  },
  test: {
    name: 'web',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // Components and routes render in jsdom; fetch is answered by MSW at the network edge.
    environment: 'jsdom',
    setupFiles: ['src/test/setup.ts'],
    // The files share their worker's jsdom and libraries instead of a new process each: a new
    // jsdom and React per file were most of this project's CPU (73 s to about 21 s, decision
    // 0046). src/test/setup.ts evaluates Loop's own modules again for each file.
    isolate: false,
    // As the root config's (this file is a project of its own, which does not inherit it): one
    // worker per core. Vitest refuses projects run together with different worker counts.
    maxWorkers: Math.max(2, availableParallelism()),
    testTimeout: 20_000,
  },
});
