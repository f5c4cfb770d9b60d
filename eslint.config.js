import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = new URL('./apps/web/src/features/', import.meta.url);
const features = (() => {
  try {
    return readdirSync(featuresDir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name);
  } catch {
    return [];
  }
})();

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
    files: ['packages/shared/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [noServerCode, { group: ['**/apps/web/**', '@/**'], message: 'Shared code never imports the web app.' }] }] },
  },
  {
    files: ['apps/server/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/apps/web/**', '@loop/web', '@loop/web/**'], message: 'The server never imports web code.' }] }] },
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
            { group: ['@/features/**', '@/app/**', '**/features/**', '**/app/**'], message: 'Shared UI and lib code never import features or app code.' },
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
            { group: ['../../*', '!../../components/**', '!../../lib/**'], message: 'Import other folders through "@/", never across features.' },
          ],
        },
      ],
    },
  })),
);
