// The API-key form: the server checks the key with the PMS before saving it and answers 422 when refused.
import { useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import type { ProviderAccount } from '../../../api/types';
import { ErrorNote, SubmitButton, TextField } from '../../../ui/forms';
import { connectProviderAccount } from '../api';
import { providerAccountQueries } from '../../../api/queries';

export const CONNECTED_MESSAGE = 'The practice management system is connected. Its practitioners, locations and appointment types are being imported.';

export function ConnectAccountForm({ onConnected }: { onConnected: (account: ProviderAccount) => void }) {
  const { api, flash, startUp } = useServices();
  const queryClient = useQueryClient();
  const [apiKey, setApiKey] = useState('');
  const [validation, setValidation] = useState<string | null>(null);
  const connect = useMutation({
    mutationFn: (key: string) => connectProviderAccount(api, key),
    onSuccess: (account) => {
      queryClient.setQueryData(providerAccountQueries.current(api).queryKey, account);
      flash.send({ type: 'APPEND', text: CONNECTED_MESSAGE });
      onConnected(account);
      // Start-up follows the account's new status (INITIALIZING keeps the user in account setup).
      startUp.send({ type: 'RELOAD' });
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const key = apiKey.trim();
    if (key === '') {
      setValidation('API key: enter the key from your practice management system.');
      return;
    }
    setValidation(null);
    connect.mutate(key);
  };

  return (
    <form onSubmit={submit} className="space-y-4" aria-label="Connect provider account" noValidate>
      <p className="text-sm text-slate-600 dark:text-slate-400">
        In Cliniko, create an API key under My info → Manage API keys and paste it here. Rounds checks it with Cliniko before saving it,
        stores it encrypted and never shows it again.
      </p>
      <TextField label="API key" type="password" autoComplete="off" value={apiKey} onChange={(event) => setApiKey(event.target.value)} />
      {validation && <ErrorNote>{validation}</ErrorNote>}
      {connect.isError && <ErrorNote>{messageOfError(connect.error, 'An error has occurred. Could not connect the provider account.')}</ErrorNote>}
      <SubmitButton busy={connect.isPending} busyLabel="Checking the key…">
        Connect
      </SubmitButton>
    </form>
  );
}
