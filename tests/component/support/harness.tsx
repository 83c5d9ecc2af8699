// The one harness of component and model tests: the fake API's lifetime, and the app with its real services —
// whole at a path (routes, layout, machines, API client), reloadable like a page; one view with the services, toasts
// and modal host around it; or one page at its address that way, without the router, guards or layout.
// All run against the fake API (./fakeApi.ts) with the sync machines polling fast.
import { Suspense, type ComponentType, type ReactNode } from 'react';
import { act, render, type RenderResult } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { App } from '../../../src/App';
import { BusinessDefaultsProvider } from '../../../src/app/BusinessDefaultsProvider';
import { ServicesProvider } from '../../../src/app/ServicesContext';
import { createAppServices, type AppMachines, type AppServices, type AppServicesOptions } from '../../../src/app/services';
import { AUTH_TOKEN_KEY, AUTH_USER_KEY } from '../../../src/machines/auth';
import { jobRunMachine } from '../../../src/machines/jobRun';
import { ModalHost } from '../../../src/shell/ModalHost';
import { findRoute } from '../../../src/router/routeTable';
import type { RoutePageProps } from '../../../src/router/routeTypes';
import { Toasts } from '../../../src/shell/Toasts';
import type { Role } from '../../../src/api/types';
import { received, server, tokenFor, usersByRole } from './fakeApi';

export const TEST_POLL_MS = 30;
export const fastPolling = jobRunMachine.provide({ delays: { pollInterval: TEST_POLL_MS } });

/** Services of the apps a test started, stopped after it even when it fails. */
const running = new Set<AppServices>();

function startServices(options: AppServicesOptions): AppServices {
  const services = createAppServices(options);
  running.add(services);
  return services;
}

function stopServices(services: AppServices): void {
  running.delete(services);
  services.stop();
}

/** Call once per test file: the fake API listens for the whole file and forgets each test's answers and requests after it. */
export function useFakeApi(): void {
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    for (const services of [...running].reverse()) stopServices(services);
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

export interface RunningApp {
  services: AppServices;
  /** A full page load of `path` (default: the current URL): every actor is dropped and the app starts from what localStorage kept. */
  reload(path?: string): void;
  stop(): void;
}

export interface RenderAppOptions extends AppServicesOptions {
  /** Signed in as a user of this role, as a previous page load left it. */
  as?: Role;
}

/** The whole app at `path`, as a page load in the browser starts it. */
export function renderApp(path: string, { as, ...rest }: RenderAppOptions = {}): RunningApp {
  const options: AppServicesOptions = { ...rest, machines: { jobRun: fastPolling, ...rest.machines } };
  if (as) storeSession(as);
  window.history.replaceState(null, '', path);
  document.documentElement.classList.remove('dark');
  const mount = (services: AppServices): RenderResult =>
    render(<App services={services} />);
  let services = startServices(options);
  let view = mount(services);
  return {
    get services() {
      return services;
    },
    reload(next) {
      act(() => {
        view.unmount();
        stopServices(services);
      });
      if (next) window.history.replaceState(null, '', next);
      services = startServices(options);
      view = mount(services);
    },
    stop() {
      view.unmount();
      stopServices(services);
    },
  };
}

/** One view (a page or a modal) with the services of a signed-in user of `role` (machines swapped as given), the toasts and the modal host. */
export function renderWithServices(
  ui: ReactNode,
  { role = 'ADMIN', machines }: { role?: Role; machines?: Partial<AppMachines> } = {},
): { services: AppServices; unmount: () => void } {
  const user = usersByRole[role];
  const services = startServices({ navigate: vi.fn(), authInput: { token: tokenFor(user), user }, machines: { jobRun: fastPolling, ...machines } });
  const view = render(
    <ServicesProvider services={services}>
      <QueryClientProvider client={services.queryClient}>
        <Toasts />
        <ModalHost />
        {ui}
      </QueryClientProvider>
    </ServicesProvider>,
  );
  return {
    services,
    unmount: () => {
      view.unmount();
      stopServices(services);
    },
  };
}

/**
 * The page of the route at `path` (which may carry a query), as its route shows it to a signed-in user of `role` (ADMIN
 * unless given): the address set, the business defaults the layout gives and a Suspense boundary like the route's —
 * without the router, the guards or the layout, and with renderWithServices' mock `navigate`, so nothing (start-up
 * included) moves to another page. Tests of routing, access, the layout, a navigation or a reload use renderApp.
 */
export function renderPage(
  Page: ComponentType<RoutePageProps>,
  { path, ...options }: { path: string; role?: Role; machines?: Partial<AppMachines> },
): ReturnType<typeof renderWithServices> {
  const route = findRoute(new URL(path, window.location.origin).pathname);
  if (!route) throw new Error(`No route matches ${path}`);
  window.history.replaceState(null, '', path);
  return renderWithServices(
    <BusinessDefaultsProvider>
      <Suspense fallback={null}>
        <Page route={route} />
      </Suspense>
    </BusinessDefaultsProvider>,
    options,
  );
}
