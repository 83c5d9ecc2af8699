// /settings/provider-account: the PMS connection's status, its masked key, Disconnect (confirmed) and
// Reconnect / Add.
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { selectUser } from '../../../machines/auth';
import { browserTimeZone, formatDateTime } from '../../../lib/dates';
import { ErrorNote } from '../../../ui/forms';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { PageSpinner } from '../../../ui/PageSpinner';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { disconnectProviderAccount } from '../api';
import { PROVIDER_NAMES, useProviderAccount } from './providerAccountQuery';
import { providerAccountQueries } from '../../../api/queries';
import { maskedKey, StatusBadge } from './StatusBadge';
import { Button } from '../../../ui/Button';

const DISCONNECTED_MESSAGE = 'The practice management system has been disconnected.';

export default function ProviderAccountPage() {
  const { api, flash, startUp } = useServices();
  const queryClient = useQueryClient();
  const timeZone = useAuthSelector(selectUser)?.business_account.time_zone ?? browserTimeZone();
  const account = useProviderAccount();
  const [confirming, setConfirming] = useState(false);
  const disconnect = useMutation({
    mutationFn: () => disconnectProviderAccount(api),
    onSuccess: (updated) => {
      queryClient.setQueryData(providerAccountQueries.current(api).queryKey, updated);
      flash.send({ type: 'APPEND', text: DISCONNECTED_MESSAGE });
      startUp.send({ type: 'RELOAD' });
    },
    onError: (error) => flash.send({ type: 'APPEND', text: messageOfError(error, 'An error has occurred. Could not disconnect the provider account.'), flashType: 'danger' }),
    onSettled: () => setConfirming(false),
  });

  return (
    <>
      <PageHeader title="Provider account">The connection to your practice management system.</PageHeader>
      {account.isPending && <PageSpinner label="Loading the provider account" />}
      {account.isError && <ErrorNote>{messageOfError(account.error, 'An error has occurred. Could not load the provider account.')}</ErrorNote>}
      {account.isSuccess && account.data === null && (
        <Card>
          <p className="text-sm text-slate-600 dark:text-slate-400">No practice management system is connected yet.</p>
          <div className="mt-4">
            <Button href="/settings/provider-account/add">Add provider account</Button>
          </div>
        </Card>
      )}
      {account.data && (
        <Card>
          <dl className="grid gap-4 sm:grid-cols-2">
            <div>
              <dt className="text-xs font-medium text-slate-500 dark:text-slate-400 uppercase">System</dt>
              <dd className="mt-1 text-sm">{PROVIDER_NAMES[account.data.provider] ?? account.data.provider}</dd>
            </div>
            <div>
              <dt className="text-xs font-medium text-slate-500 dark:text-slate-400 uppercase">Status</dt>
              <dd className="mt-1">
                <StatusBadge status={account.data.status} />
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium text-slate-500 dark:text-slate-400 uppercase">API key</dt>
              <dd className="mt-1 font-mono text-sm" data-testid="provider-key">
                {maskedKey(account.data.api_key_last4)}
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium text-slate-500 dark:text-slate-400 uppercase">Connected</dt>
              <dd className="mt-1 text-sm">{account.data.connected_at ? formatDateTime(account.data.connected_at, timeZone) : '—'}</dd>
            </div>
          </dl>
          {account.data.status === 'INITIALIZING' && (
            <p className="mt-4 text-sm text-sky-800 dark:text-sky-200">Practitioners, locations and appointment types are being imported…</p>
          )}
          {account.data.last_error && account.data.status === 'CONNECTION_ERROR' && (
            <div className="mt-4">
              <ErrorNote>{account.data.last_error}</ErrorNote>
            </div>
          )}
          <div className="mt-6 flex flex-wrap gap-2">
            <Button href="/settings/provider-account/add">
              {account.data.status === 'DISCONNECTED' || account.data.status === 'CONNECTION_ERROR' ? 'Reconnect' : 'Change API key'}
            </Button>
            {account.data.status !== 'DISCONNECTED' && (
              <Button variant="secondary" danger onClick={() => setConfirming(true)}>
                Disconnect
              </Button>
            )}
          </div>
        </Card>
      )}
      <ConfirmDialog
        open={confirming}
        danger
        title="Disconnect the practice management system?"
        message="Imports and exports stop until you connect again. The API key is deleted; appointments already imported stay."
        confirmLabel="Disconnect"
        onConfirm={() => disconnect.mutate()}
        onCancel={() => setConfirming(false)}
      />
    </>
  );
}
