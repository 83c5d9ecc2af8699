// /settings/account-setup: the first-run wizard start-up sends a new business to. 1. connect the PMS (and
// wait while its reference data is pulled), 2. review the time zone and sync settings, 3. run the first
// import and watch it, then go to the dashboard. The steps come from the real state: a connected account
// that has completed an import is set up, and the page then says so with what was set up.
import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import type { ProviderAccount } from '../../../api/types';
import { selectUser } from '../../../machines/auth';
import { browserTimeZone, formatDateTime, formatDayRange } from '../../../lib/dates';
import { ErrorNote } from '../../../ui/forms';
import { Card, PageHeader } from '../../../ui/PageHeader';
import { Icon } from '../../../ui/Icon';
import { PageSpinner, Spinner } from '../../../ui/PageSpinner';
import type { SyncJob } from '../../../api/jobs';
import { resultSummary } from '../../../entities/jobs/jobStatus';
import { SyncJobPanel } from '../SyncJobPanel';
import { syncJobQueries } from '../queries';
import { ConnectAccountForm } from '../provider-account/ConnectAccountForm';
import { PROVIDER_NAMES, useProviderAccount } from '../provider-account/providerAccountQuery';
import { SyncSettingsForm } from '../settings/SyncSettingsForm';
import { setupStep, STEP_TITLES, stepIndex } from './setupSteps';
import { Button } from '../../../ui/Button';
import { TextLink } from '../../../ui/TextLink';

/** The newest completed import among the latest hundred jobs (automatic imports run hourly), or null. */
function useLatestCompletedImport(enabled: boolean) {
  const { api } = useServices();
  return useQuery({
    ...syncJobQueries.latestCompleteImport(api),
    enabled,
    staleTime: 0,
  });
}

function Steps({ current }: { current: number }) {
  return (
    <ol className="mb-6 grid gap-2 sm:grid-cols-3" aria-label="Setup steps">
      {STEP_TITLES.map((title, index) => (
        <li
          key={title}
          aria-current={index === current ? 'step' : undefined}
          data-done={index < current ? 'true' : undefined}
          className={`rounded-lg border px-3 py-2 text-sm ${
            index === current
              ? 'border-sky-400 bg-sky-50 font-semibold text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100'
              : index < current
                ? 'border-emerald-200 text-emerald-800 dark:border-emerald-900 dark:text-emerald-200'
                : 'border-slate-200 text-slate-500 dark:text-slate-400 dark:border-slate-800'
          }`}
        >
          {index < current && <Icon name="check" className="mr-1.5 inline size-4 align-[-0.2em]" />}
          {index + 1}. {title}
          {index < current && <span className="sr-only"> (done)</span>}
        </li>
      ))}
    </ol>
  );
}

export default function AccountSetupPage() {
  const { startUp, navigate } = useServices();
  const user = useAuthSelector(selectUser);
  const account = useProviderAccount();
  // The copy start-up read may be stale (a later answer saying the setup is not complete is what sent the user
  // here): the steps wait for this page's own read.
  const read = account.isFetchedAfterMount;
  const [reviewed, setReviewed] = useState(false);
  const [firstImport, setFirstImport] = useState<SyncJob | null>(null);
  const status = read ? account.data?.status : undefined;
  const latestImport = useLatestCompletedImport(status === 'ACTIVE');

  // Start-up keeps the user here while the account is INITIALIZING; tell it once the account is ready.
  useEffect(() => {
    if (status === 'ACTIVE') startUp.send({ type: 'RELOAD' });
  }, [status, startUp]);

  const onImportCompleted = useCallback((job: SyncJob) => setFirstImport(job), []);
  const finish = () => {
    startUp.send({ type: 'RELOAD' });
    navigate('/dashboard');
  };

  if (account.isPending || !read) return <PageSpinner label="Loading your account" />;
  if (account.isError) return <ErrorNote>{messageOfError(account.error, 'An error has occurred. Could not load the provider account.')}</ErrorNote>;
  const checkingImports = status === 'ACTIVE' && latestImport.isPending;
  const derived = setupStep(account.data, { reviewed, importCompleted: Boolean(latestImport.data) });
  // The import just run here stays on screen with its counts until the user moves on.
  const step = firstImport && derived === 'done' ? 'import' : derived;
  const timeZone = user?.business_account.time_zone ?? browserTimeZone();

  return (
    <>
      <PageHeader title="Account setup">
        {derived === 'done' ? 'Your account is set up and your appointments are in Rounds.' : 'Three steps and your appointments are in Rounds.'}
      </PageHeader>
      <Steps current={checkingImports ? stepIndex('review') : firstImport?.status === 'COMPLETE' ? STEP_TITLES.length : stepIndex(step)} />
      {latestImport.isError && <ErrorNote>{messageOfError(latestImport.error, 'An error has occurred. Could not load imports.')}</ErrorNote>}
      <Card>
        {checkingImports && <PageSpinner label="Checking your imports" />}
        {!checkingImports && step === 'done' && account.data && latestImport.data && (
          <SetupComplete account={account.data} lastImport={latestImport.data} timeZone={timeZone} onFinish={finish} />
        )}
        {step === 'connect' && <ConnectAccountForm onConnected={() => void account.refetch()} />}
        {step === 'initializing' && (
          <p role="status" className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
            <Spinner className="size-5 text-sky-600" />
            Importing practitioners, business locations and appointment types from your practice management system…
          </p>
        )}
        {!checkingImports && step === 'review' && (
          <div className="space-y-6">
            <div>
              <h2 className="text-base font-semibold">Time zone</h2>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
                Appointments are scheduled in <strong data-testid="setup-time-zone">{timeZone}</strong>
                {timeZone !== browserTimeZone() ? ` (this browser is in ${browserTimeZone()})` : ''}. It can be changed under Account settings.
              </p>
            </div>
            <div>
              <h2 className="mb-3 text-base font-semibold">Sync settings</h2>
              <SyncSettingsForm submitLabel="Save and continue" onSaved={() => setReviewed(true)} />
            </div>
            <TextLink variant="muted" onClick={() => setReviewed(true)} className="text-sm">
              Keep the defaults and continue
            </TextLink>
          </div>
        )}
        {step === 'import' && (
          <div className="space-y-4">
            <p className="text-sm text-slate-600 dark:text-slate-400">Choose the dates to import; you can import more at any time from the header.</p>
            <SyncJobPanel kind="import" mode="NORMAL" onCompleted={onImportCompleted} />
            <div className="flex justify-end gap-2">
              <Button variant={firstImport ? 'primary' : 'secondary'} onClick={finish}>
                {firstImport ? 'Go to the dashboard' : 'Skip for now'}
              </Button>
            </div>
          </div>
        )}
      </Card>
    </>
  );
}

function SetupComplete({ account, lastImport, timeZone, onFinish }: { account: ProviderAccount; lastImport: SyncJob; timeZone: string; onFinish: () => void }) {
  const provider = PROVIDER_NAMES[account.provider] ?? account.provider;
  const range = formatDayRange(lastImport.start_date, lastImport.end_date);
  return (
    <div className="space-y-4" data-testid="setup-complete">
      <h2 className="text-base font-semibold">Setup is complete</h2>
      <ul className="space-y-3 text-sm text-slate-700 dark:text-slate-200">
        <li>
          Connected to {provider}
          {account.api_key_last4 ? ` (API key ••••${account.api_key_last4})` : ''}. <TextLink variant="prose" href="/settings/provider-account">Provider account</TextLink>
        </li>
        <li>
          Appointments are scheduled in <strong>{timeZone}</strong>. <TextLink variant="prose" href="/settings/sync-settings">Sync settings</TextLink>
        </li>
        <li data-testid="setup-last-import">
          Last completed import: {range} ({resultSummary(lastImport, 'import')}), started {formatDateTime(lastImport.created_at, timeZone)}.{' '}
          <TextLink variant="prose" href="/imports">Import history</TextLink>
        </li>
      </ul>
      <div className="flex justify-end">
        <Button onClick={onFinish}>Go to the dashboard</Button>
      </div>
    </div>
  );
}
