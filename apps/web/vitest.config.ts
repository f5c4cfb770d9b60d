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
    testTimeout: 20_000,
  },
});
