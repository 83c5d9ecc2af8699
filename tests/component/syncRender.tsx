// Renders the real app with the sync machines swapped for test versions (short polling delay).
import { render } from '@testing-library/react';
import { afterEach, beforeEach } from 'vitest';
import { App } from '../../src/App';
import { createAppServices, type AppServices } from '../../src/app/services';
import type { Role } from '../../src/api/types';
import { jobPollingMachine } from '../../src/machines/jobPolling';
import { SyncMachinesProvider, type SyncMachines } from '../../src/features/sync/SyncMachinesContext';
import { closeSyncModal } from '../../src/features/sync/syncModalStore';
import { server } from './support/api';
import { storeSession, useFakeApi } from './support/renderApp';
import { freshSyncState, state, syncHandlers } from './syncFakeApi';

export const TEST_POLL_MS = 30;
export const fastPolling = jobPollingMachine.provide({ delays: { pollInterval: TEST_POLL_MS } });

const running: AppServices[] = [];

/** msw with the shell's handlers plus the sync ones, a fresh fake state per test. */
export function useSyncFakeApi(): void {
  useFakeApi();
  beforeEach(() => {
    state.current = freshSyncState();
    server.use(...syncHandlers);
  });
  afterEach(() => {
    closeSyncModal();
    while (running.length) running.pop()!.stop();
  });
}

export function renderSyncApp(path: string, as: Role, machines: Partial<SyncMachines> = { polling: fastPolling }) {
  storeSession(as);
  window.history.replaceState(null, '', path);
  const services = createAppServices();
  running.push(services);
  const view = render(
    <SyncMachinesProvider machines={machines}>
      <App services={services} />
    </SyncMachinesProvider>,
  );
  return { ...view, services };
}
