// Which sync modal is open. The header's Import and Export links (and any view wanting a FAST import for
// one day) open it here; the modal itself is loaded lazily so it stays out of the initial bundle.
import { useSyncExternalStore } from 'react';

export type SyncModalRequest = { kind: 'import' | 'export'; mode: 'NORMAL' | 'FAST'; date?: string };

let current: SyncModalRequest | null = null;
/** Bumped on every open so a re-opened modal mounts fresh and prefills again. */
let openCount = 0;
const listeners = new Set<() => void>();

function set(next: SyncModalRequest | null) {
  current = next;
  for (const listener of listeners) listener();
}

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
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => current,
  );
}
