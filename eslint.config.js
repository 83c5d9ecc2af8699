import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import boundaries from './lint/import-through-index.js';

// Which layer may import which, no import cycles and no feature importing another are checked by dependency-cruiser
// (.dependency-cruiser.cjs, the second half of `npm run lint`); the two layer rules below came first and stay as
// ESLint's quicker message in an editor.

const SERVER_UNITS = ['server/src/modules/*', 'server/src/pms', 'server/src/pms/sandbox', 'server/src/sample-data'];

export default tseslint.config(
  { ignores: ['dist/', 'data/', 'tmp/', 'coverage/', 'node_modules/', 'openapi/generated/', 'server/src/pms/cliniko/cliniko-schema.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The jobs layer (queue, worker, scheduler) runs whatever handlers it is given; the modules that own the work
    // depend on it, never the other way round (docs/decisions/0003-sync-jobs.md, issue 11).
    files: ['server/src/jobs/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/modules', '**/modules/**'],
          message: 'server/src/jobs must not import server/src/modules: have the worker or scheduler given what it needs where it is started.',
        }],
      }],
    },
  },
  {
    // A server module, the PMS layer, its sandbox and the sample data are entered through their index.ts from outside
    // their folder (lint/import-through-index.js); inside, files import each other freely. Module folders list what
    // other modules use in their index.ts. The web app is covered too: its tests may read a server rule (the day
    // range in server/src/lib), never a module's internals.
    files: ['server/**/*.ts', 'tests/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{ts,mjs}'],
    plugins: { boundaries },
    rules: {
      'boundaries/import-through-index': ['error', { units: SERVER_UNITS }],
    },
  },
  {
    // In the web app a feature is entered through its index.ts too (src/features/<feature>/index.ts lists what the shell
    // and the other pages use). The route table alone loads pages by file, lazily, so each page is its own chunk.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/router/routeTable.ts'],
    plugins: { boundaries },
    rules: {
      'boundaries/import-through-index': ['error', { units: [...SERVER_UNITS, 'src/features/*'] }],
    },
  },
  {
    // Machines, API calls and pure helpers sit below every view: they never import features, the shell or UI parts.
    files: ['src/machines/**/*.ts', 'src/api/**/*.ts', 'src/lib/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/features', '**/features/**', '**/shell', '**/shell/**', '**/ui', '**/ui/**'],
          message: 'src/machines, src/api and src/lib must not import views (features, shell, ui): move what they need into src/api or src/lib.',
        }],
      }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
);
