// Renders the real app (routes, layout, machines, API client) at a path, against the msw API.
import { render } from '@testing-library/react';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { App } from '../../../src/App';
import { createAppServices, type AppServices, type AppServicesOptions } from '../../../src/app/services';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '../../../src/machines/auth';
import type { Role } from '../../../src/api/types';
import { received, server, tokenFor, usersByRole } from './api';

const running: AppServices[] = [];

/** Call once per test file: starts msw and stops each test's actors after it. */
export function useFakeApi(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    while (running.length) running.pop()!.stop();
    server.resetHandlers();
    received.length = 0;
  });
  afterAll(() => server.close());
}

/** What a previous page load left in localStorage for a logged-in user of this role. */
export function storeSession(role: Role): void {
  const user = usersByRole[role];
  localStorage.setItem(AUTH_TOKEN_KEY, JSON.stringify(tokenFor(user)));
  localStorage.setItem(AUTH_USER_KEY, JSON.stringify(user));
}

export function currentPath(): string {
  return window.location.pathname;
}

export function renderApp(path: string, options: AppServicesOptions & { as?: Role } = {}) {
  if (options.as) storeSession(options.as);
  window.history.replaceState(null, '', path);
  document.documentElement.classList.remove('dark');
  const services = createAppServices(options);
  running.push(services);
  const view = render(<App services={services} />);
  return { ...view, services };
}
