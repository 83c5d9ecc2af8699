// The header's Import and Export links. The modals load on first use, keeping them (and the date picker)
// out of the initial bundle.
import { lazy, Suspense, useEffect } from 'react';
import { closeSyncModal, openSyncModal, useSyncModal } from './syncModalStore';

const SyncModalHost = lazy(() => import('./SyncModalHost'));

const linkClass =
  'rounded-md px-2.5 py-1.5 text-sm font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900 dark:text-slate-300 dark:hover:bg-slate-800 dark:hover:text-white';

export function HeaderSyncLinks() {
  const open = useSyncModal() !== null;
  // Leaving the layout (logging out) closes the modal, so the next session does not find it open.
  useEffect(() => closeSyncModal, []);
  return (
    <>
      <button type="button" className={linkClass} onClick={() => openSyncModal('import')}>
        Import
      </button>
      <button type="button" className={linkClass} onClick={() => openSyncModal('export')}>
        Export
      </button>
      {open && (
        <Suspense fallback={null}>
          <SyncModalHost />
        </Suspense>
      )}
    </>
  );
}
