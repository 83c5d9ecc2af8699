// The header's Import and Export links. The modals load on first use, keeping them (and the date picker)
// out of the initial bundle.
import { lazy, Suspense, useEffect } from 'react';
import { Button } from '../../ui/Button';
import { closeSyncModal, openSyncModal, useSyncModal } from '../../app/syncModalStore';

const SyncModalHost = lazy(() => import('./SyncModalHost'));


export function HeaderSyncLinks() {
  const open = useSyncModal() !== null;
  // Leaving the layout (logging out) closes the modal, so the next session does not find it open.
  useEffect(() => closeSyncModal, []);
  return (
    <>
      <Button variant="ghost" size="sm" onClick={() => openSyncModal('import')}>
        Import
      </Button>
      <Button variant="ghost" size="sm" onClick={() => openSyncModal('export')}>
        Export
      </Button>
      {open && (
        <Suspense fallback={null}>
          <SyncModalHost />
        </Suspense>
      )}
    </>
  );
}
