import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

const COMPONENT_FILES = ['src/**/*.test.tsx', 'tests/component/**/*.test.tsx', 'tests/model/**/*.test.tsx'];
/** Component files that call vi.mock: they run in the component-mocks project (`--project 'component*'` runs both). */
const COMPONENT_FILES_MOCKING_MODULES = ['tests/component/map-view.test.tsx', 'tests/component/shell.test.tsx'];
/** API files that call vi.mock: they run in the api-mocks project (`--project 'api*'` runs both). */
const API_FILES_MOCKING_MODULES = ['tests/api/optimizations-within-the-rules.test.ts'];
// 60 s a test: an import or an allocation over the sandbox takes seconds alone and 30 s and more on a two-core machine
// running the browser lane beside it (imports-reliability, sync-imports, routes-sync timed out there at 30 s).
const API_TIMEOUTS = { testTimeout: 60_000, hookTimeout: 90_000 };

/**
 * Two files at a time in every project. Vitest's default is one fewer than the cores, which on a two-core machine is one
 * file at a time with a core left to the runner, mostly idle. Measured on two quiet cores: unit 56 → 36 s,
 * component 154 → 90 s, API on PostgreSQL 234 → 137 s, the same tests passing.
 */
const FILES_AT_ONCE = 2;

/**
 * The longest files of their project, measured, started first. Without Vitest's cache of earlier runs (a fresh
 * checkout, as in CI) it starts the largest files first, and these are short files with long waits: started last,
 * one ran alone for minutes while the other worker sat idle.
 */
const LONGEST_FILES = [
  'tests/e2e/accessibility-admin.test.ts', 'tests/e2e/reports.test.ts', 'tests/e2e/accessibility.test.ts', 'tests/e2e/day-with-the-client.test.ts',
  'tests/unit/cli-admin.test.ts', 'tests/api/fuzz.test.ts', 'tests/api/security.test.ts', 'tests/api/backup.test.ts',
];

class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]) {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FILES.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    const sorted = await super.sort(files);
    const projects = [...new Set(sorted.map((file) => file.project.name))];
    const project = (file: TestSpecification) => projects.indexOf(file.project.name);
    // Array sort is stable: the other files keep Vitest's order (projects one after another, then by earlier times).
    return sorted.sort((a, b) => project(a) - project(b) || rank(a) - rank(b));
  }
}

// One runner, one project per layer; scripts/test-all.mjs runs them in order.
export default defineConfig({
  plugins: [react()],
  test: {
    maxWorkers: FILES_AT_ONCE,
    // A failed assertion shows what it received ("expected [ 'day schedule: color-contrast …' ]", not "[ Array(1) ]"):
    // a CI log's summary holds only the message.
    chaiConfig: { truncateThreshold: 2000 },
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          include: ['src/**/*.test.ts', 'server/**/*.test.ts', 'tests/unit/**/*.test.ts', 'scripts/**/*.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'component',
          environment: 'jsdom',
          include: COMPONENT_FILES,
          exclude: COMPONENT_FILES_MOCKING_MODULES,
          setupFiles: ['tests/component/setup.ts'],
          // Files share their worker's loaded modules (React, the app, jsdom's set-up): loading them once per worker
          // instead of once per file more than halves the stage. Every file still renders its own app with its own
          // services, and the setup file clears the DOM, storage and address after each test.
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          // The files that replace a module with vi.mock: a module another file already loaded would not be
          // replaced, and the replacement would leak into the files after it, so each of these loads its own.
          name: 'component-mocks',
          environment: 'jsdom',
          include: COMPONENT_FILES_MOCKING_MODULES,
          setupFiles: ['tests/component/setup.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'api',
          environment: 'node',
          include: ['tests/api/**/*.test.ts'],
          exclude: API_FILES_MOCKING_MODULES,
          // Files share their worker's module cache: each file still starts its own app on its own database, and
          // loading the server's modules once per worker instead of once per file halves the stage's CPU time.
          isolate: false,
          ...API_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          // The files that replace a module with vi.mock (as component-mocks): each loads its own modules.
          name: 'api-mocks',
          environment: 'node',
          include: API_FILES_MOCKING_MODULES,
          ...API_TIMEOUTS,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          // expect.poll waits for what the page shows as long as Playwright's actions do (the helpers' 15 s) instead
          // of Vitest's 1 s: a refetch and render can take longer on a busy machine. It still answers at the first match.
          expect: { poll: { timeout: 15_000 } },
          // Two files at a time: each has its own server, port and data directory, and a file spends much of its
          // time waiting (the server starting, polls, the optimiser's search), so a second one fills the cores.
          // Measured on two busy cores: the suite 704 s one file at a time → 495 s two at a time, the same CPU time.
          fileParallelism: true,
          maxWorkers: FILES_AT_ONCE,
        },
      },
    ],
  },
});
