import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = new URL('./apps/web/src/features/', import.meta.url);
const features = (() => {
  try {
    return readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
  } catch {
    return [];
  }
})();

/**
 * The server's layers (docs/architecture.md#who-may-import-whom): what each folder of
 * apps/server/src may import besides itself. Everything not listed is forbidden, so nothing
 * imports upward: routes -> plugins -> services -> publishing -> messaging -> media -> storage -> db,
 * with jobs and scheduling on top of services, and lib, config, errors and the context's types
 * usable by all. Only the entry points (app.ts, server.ts, create-context.ts, cli/) put it all together.
 */
const base = ['lib', 'config.ts', 'errors.ts', 'context.ts'];
const below = {
  db: ['lib', 'config.ts', 'errors.ts'],
  metrics: ['lib', 'config.ts', 'errors.ts'],
  storage: ['lib', 'config.ts', 'errors.ts'],
  media: ['storage', 'db', ...base],
  messaging: ['media', 'storage', 'metrics', 'db', ...base],
  mail: ['messaging', 'media', 'storage', 'metrics', 'db', ...base],
  outbox: ['mail', 'messaging', 'media', 'storage', 'metrics', 'db', ...base],
  publishing: ['messaging', 'media', 'storage', 'metrics', 'db', ...base],
  paper: ['publishing', 'media', 'storage', 'db', ...base],
  // The phone line's TwiML and call state (decision 0067): no domain, no database.
  voice: [...base],
  services: ['paper', 'publishing', 'mail', 'messaging', 'media', 'storage', 'db', ...base],
  plugins: ['services', 'paper', 'publishing', 'mail', 'messaging', 'media', 'storage', 'metrics', 'db', ...base],
  routes: ['plugins', 'services', 'voice', 'paper', 'publishing', 'mail', 'messaging', 'media', 'storage', 'db', ...base],
  scheduling: ['services', 'paper', 'publishing', 'mail', 'messaging', 'media', 'storage', 'db', ...base],
  jobs: ['scheduling', 'services', 'paper', 'publishing', 'outbox', 'mail', 'messaging', 'media', 'storage', 'metrics', 'db', ...base],
  cli: ['create-context.ts', 'services', 'paper', 'publishing', 'mail', 'messaging', 'media', 'storage', 'db', ...base],
  lib: ['errors.ts'],
  'config.ts': [],
  'errors.ts': [],
};
const serverParts = [...Object.keys(below), 'context.ts', 'create-context.ts', 'app.ts', 'server.ts'];
const serverLayers = Object.entries(below).map(([part, allowed]) => ({
  target: `./apps/server/src/${part}`,
  from: serverParts.filter((other) => other !== part && !allowed.includes(other)).map((other) => `./apps/server/src/${other}`),
  message: `${part} may import only ${allowed.join(', ') || 'nothing of the server'} (docs/architecture.md#who-may-import-whom).`,
}));

/** import-x reads TypeScript files and resolves imports as Node and the bundler do (with the web app's "@/" alias). */
function importSettings(alias = {}) {
  return {
    ...importX.flatConfigs.typescript.settings,
    'import-x/resolver': undefined,
    'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'], alias })],
  };
}

const noServerCode = {
  group: ['@loop/server', '@loop/server/**', '**/apps/server/**', '**/server/src/**'],
  message: 'The web app and the shared package never import server code.',
};

export default defineConfig(
  {
    ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'apps/server/src/db/migrations/**', 'e2e/artifacts/**', 'test-results/**'],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules (floating promises, unsafe any, ...) for the server's and the shared package's
    // source only: the project service reads the tsconfig.json nearest to each file (apps/server,
    // packages/shared). Not for tests (decision 0066): there nearly every `any` is an injected
    // response's `res.json()` or an asymmetric matcher, so the no-unsafe-* rules were off and
    // type-checking each test file for the few rules left cost a large share of the lint's time.
    files: ['apps/server/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Fastify plugins, hooks and handlers are async by contract (an async one needs no `done`
      // callback), as are implementations of Promise-returning interfaces: async without an await is right there.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    files: ['packages/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [noServerCode, { group: ['**/apps/web/**', '@/**'], message: 'Shared code never imports the web app.' }] },
      ],
    },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/apps/web/**', '@loop/web', '@loop/web/**'], message: 'The server never imports web code.' }] },
      ],
    },
  },
  {
    // The server's layers, and no import cycles in the server or the shared package (type-only imports aside).
    files: ['apps/server/src/**/*.ts', 'packages/shared/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    plugins: { 'import-x': importX },
    settings: importSettings(),
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: serverLayers }],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // No import cycles in the web app either ("@/" is apps/web/src, as in its tsconfig).
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: importSettings({ '@': [fileURLToPath(new URL('./apps/web/src', import.meta.url))] }),
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    extends: [reactHooks.configs.flat['recommended-latest']],
    rules: {
      'no-restricted-imports': ['error', { patterns: [noServerCode] }],
    },
  },
  {
    // Code flows shared -> components/lib -> features -> app: the lower layers never import upward.
    files: ['apps/web/src/components/**', 'apps/web/src/lib/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noServerCode,
            {
              group: ['@/features/**', '@/app/**', '**/features/**', '**/app/**'],
              message: 'Shared UI and lib code never import features or app code.',
            },
          ],
        },
      ],
    },
  },
  ...features.map((feature) => ({
    files: [`apps/web/src/features/${feature}/**`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            noServerCode,
            {
              group: ['@/features/*/**', `!@/features/${feature}/**`, '@/app/**'],
              message: 'A feature never imports another feature or the app: move shared code to components/ or lib/.',
            },
            {
              group: ['../../*', '!../../components/**', '!../../lib/**'],
              message: 'Import other folders through "@/", never across features.',
            },
          ],
        },
      ],
    },
  })),
);
