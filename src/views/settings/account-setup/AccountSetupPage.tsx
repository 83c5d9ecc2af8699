// /settings/account-setup: the first-run wizard start-up sends a new business to. 1. connect the PMS (and
// wait while its reference data is pulled), 2. review the time zone and sync settings, 3. run the first
// import and watch it, then go to the dashboard.
import { useCallback, useEffect, useState } from 'react';
import { useAuthSelector, useServices } from '../../../app/ServicesContext';
import { messageOfError } from '../../../api/errors';
import { selectUser } from '../../../machines/auth';
import { browserTimeZone } from '../../../lib/dates';
import { ErrorNote } from '../../common/forms';
import { Card, PageHeader } from '../../common/PageHeader';
import { PageSpinner, Spinner } from '../../common/PageSpinner';
import type { SyncJob } from '../../sync/api';
import { SyncJobPanel } from '../../sync/SyncJobPanel';
import { ConnectAccountForm } from '../provider-account/ConnectAccountForm';
import { useProviderAccount } from '../provider-account/providerAccountQuery';
import { SyncSettingsForm } from '../sync-settings/SyncSettingsForm';
import { setupStep, STEP_TITLES, stepIndex } from './setupSteps';

function Steps({ current }: { current: number }) {
  return (
    <ol className="mb-6 grid gap-2 sm:grid-cols-3" aria-label="Setup steps">
      {STEP_TITLES.map((title, index) => (
        <li
          key={title}
          aria-current={index === current ? 'step' : undefined}
          className={`rounded-lg border px-3 py-2 text-sm ${
            index === current
              ? 'border-sky-400 bg-sky-50 font-semibold text-sky-900 dark:border-sky-700 dark:bg-sky-950 dark:text-sky-100'
              : index < current
                ? 'border-emerald-200 text-emerald-800 dark:border-emerald-900 dark:text-emerald-200'
                : 'border-slate-200 text-slate-500 dark:border-slate-800'
          }`}
        >
          {index + 1}. {title}
        </li>
      ))}
    </ol>
  );
}

export default function AccountSetupPage() {
  const { startUp, navigate } = useServices();
  const user = useAuthSelector(selectUser);
  const account = useProviderAccount();
  const [reviewed, setReviewed] = useState(false);
  const [firstImport, setFirstImport] = useState<SyncJob | null>(null);
  const status = account.data?.status;

  // Start-up keeps the user here while the account is INITIALIZING; tell it once the account is ready.
  useEffect(() => {
    if (status === 'ACTIVE') startUp.send({ type: 'RELOAD' });
  }, [status, startUp]);

  const onImportCompleted = useCallback((job: SyncJob) => setFirstImport(job), []);
  const finish = () => {
    startUp.send({ type: 'RELOAD' });
    navigate('/dashboard');
  };

  if (account.isPending) return <PageSpinner label="Loading your account" />;
  if (account.isError) return <ErrorNote>{messageOfError(account.error, 'An error has occurred. Could not load the provider account.')}</ErrorNote>;
  const step = setupStep(account.data, reviewed);
  const timeZone = user?.business_account.time_zone ?? browserTimeZone();

  return (
    <>
      <PageHeader title="Account setup">Three steps and your appointments are in Rounds.</PageHeader>
      <Steps current={stepIndex(step)} />
      <Card>
        {step === 'connect' && <ConnectAccountForm onConnected={() => void account.refetch()} />}
        {step === 'initializing' && (
          <p role="status" className="flex items-center gap-3 text-sm text-slate-700 dark:text-slate-200">
            <Spinner className="size-5 text-sky-600" />
            Importing practitioners, business locations and appointment types from your practice management system…
          </p>
        )}
        {step === 'review' && (
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
            <button type="button" onClick={() => setReviewed(true)} className="text-sm text-slate-600 underline dark:text-slate-400">
              Keep the defaults and continue
            </button>
          </div>
        )}
        {step === 'import' && (
          <div className="space-y-4">
            <p className="text-sm text-slate-600 dark:text-slate-400">Choose the dates to import; you can import more at any time from the header.</p>
            <SyncJobPanel kind="import" mode="NORMAL" onCompleted={onImportCompleted} />
            <div className="flex justify-end gap-2">
              <button
                type="button"
                onClick={finish}
                className={
                  firstImport
                    ? 'rounded-md bg-sky-600 px-4 py-2 text-sm font-semibold text-white hover:bg-sky-700'
                    : 'rounded-md border border-slate-300 px-4 py-2 text-sm font-medium dark:border-slate-600'
                }
              >
                {firstImport ? 'Go to the dashboard' : 'Skip for now'}
              </button>
            </div>
          </div>
        )}
      </Card>
    </>
  );
}
