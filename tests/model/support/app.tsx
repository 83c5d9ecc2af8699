// Runs the real app (views, machines, API client) against msw for one model path, with
// reloads: a reload drops every actor and renders afresh from what localStorage kept.
import { act, render, type RenderResult } from '@testing-library/react';
import { App } from '../../../src/App';
import { createAppServices, type AppServices } from '../../../src/app/services';

export interface RunningApp {
  services: AppServices;
  /** A full page load of `path` (default: the current URL). */
  reload(path?: string): void;
  stop(): void;
}

export function startApp(path: string): RunningApp {
  window.history.replaceState(null, '', path);
  let services = createAppServices();
  let view: RenderResult = render(<App services={services} />);
  const app: RunningApp = {
    get services() {
      return services;
    },
    reload(path) {
      act(() => {
        view.unmount();
        services.stop();
      });
      if (path) window.history.replaceState(null, '', path);
      services = createAppServices();
      view = render(<App services={services} />);
    },
    stop() {
      view.unmount();
      services.stop();
    },
  };
  return app;
}
