// Which sync modal is open. The header's Import and Export links (and any view wanting a FAST import for
// one day) open it here; the modal itself is loaded lazily so it stays out of the initial bundle. A page showing
// some days (the day schedule, the run sheet, a list of visits) says which, and the modal opens on them.
import { useEffect } from 'react';
import { createExternalStore } from '../lib/externalStore';

/** A whole range of days, yyyy-MM-dd as the API writes them. */
export interface DateRange {
  start: string;
  end: string;
}

export type SyncModalRequest = { kind: 'import' | 'export'; mode: 'NORMAL' | 'FAST'; date?: string; range?: DateRange };

const store = createExternalStore<SyncModalRequest | null>(null);
const viewedDays = createExternalStore<DateRange | null>(null);
/** Bumped on every open so a re-opened modal mounts fresh and prefills again. */
let openCount = 0;
const set = store.set;

export function openSyncModal(kind: SyncModalRequest['kind'], mode: SyncModalRequest['mode'] = 'NORMAL', date?: string): void {
  openCount += 1;
  set({ kind, mode, date, range: viewedDays.get() ?? undefined });
}

/** While the calling page is shown, Import and Export open on the days it shows (yyyy-MM-dd, both included). */
export function useViewedDaysForSync(start: string, end: string): void {
  useEffect(() => {
    viewedDays.set({ start, end });
    return () => viewedDays.set(null);
  }, [start, end]);
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
