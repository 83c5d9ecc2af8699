import { Card, PageHeader } from '../../../ui/PageHeader';
import { SyncSettingsForm } from './SyncSettingsForm';

export default function SyncSettingsPage() {
  return (
    <>
      <PageHeader title="Sync settings">Automatic imports and exports and their filters.</PageHeader>
      <Card>
        <SyncSettingsForm />
      </Card>
    </>
  );
}
