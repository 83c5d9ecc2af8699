// Renders the open sync modal; lazily imported by the header.
import { closeSyncModal, openSyncModalCount, useSyncModal } from '../../app/syncModalStore';
import { SyncModal } from './SyncModal';

export default function SyncModalHost() {
  const request = useSyncModal();
  if (!request) return null;
  return <SyncModal key={openSyncModalCount()} kind={request.kind} mode={request.mode} date={request.date} range={request.range} onClose={closeSyncModal} />;
}
