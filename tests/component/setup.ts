import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';

// Component tests render whole pages with lazy chunks and msw round trips; on a busy two-core
// CI machine the defaults (1 s for findBy/waitFor, 5 s per test) turn slowness into failures.
configure({ asyncUtilTimeout: 4000 });
vi.setConfig({ testTimeout: 20_000 });

// jsdom has no layout: Headless UI's anchored panels watch their size with ResizeObserver.
if (typeof globalThis.ResizeObserver === 'undefined') {
  globalThis.ResizeObserver = class ResizeObserver {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
}

afterEach(() => {
  cleanup();
  localStorage.clear();
  // Pages and modals keep their state in the address: every test starts from a bare one.
  window.history.replaceState(null, '', '/');
});
