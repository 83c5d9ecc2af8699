// /settings/provider-account/add: connect (or reconnect) the PMS with an API key.
import { useServices } from '../../../app/ServicesContext';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { ConnectAccountForm } from './ConnectAccountForm';

export default function AddProviderAccountPage() {
  const { navigate } = useServices();
  return (
    <>
      <PageHeader title="Add provider account">Connect your Cliniko account.</PageHeader>
      <Card className="max-w-xl">
        <ConnectAccountForm onConnected={() => navigate('/settings/provider-account')} />
      </Card>
    </>
  );
}
