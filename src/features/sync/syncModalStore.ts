// Which sync modal is open. The header's Import and Export links (and any view wanting a FAST import for
// one day) open it here; the modal itself is loaded lazily so it stays out of the initial bundle.
import { createExternalStore } from '../../lib/externalStore';

export type SyncModalRequest = { kind: 'import' | 'export'; mode: 'NORMAL' | 'FAST'; date?: string };

const store = createExternalStore<SyncModalRequest | null>(null);
/** Bumped on every open so a re-opened modal mounts fresh and prefills again. */
let openCount = 0;
const set = store.set;

export function openSyncModal(kind: SyncModalRequest['kind'], mode: SyncModalRequest['mode'] = 'NORMAL', date?: string): void {
  openCount += 1;
  set({ kind, mode, date });
}

export function closeSyncModal(): void {
  set(null);
}

export function openSyncModalCount(): number {
  return openCount;
}

export function useSyncModal(): SyncModalRequest | null {
  return store.use();
}
