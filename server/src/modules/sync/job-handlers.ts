// The sync module's jobs (merged with the other modules' in ../job-handlers.ts, which whoever starts a worker is given):
// a handler per sync job kind, and what the automatic-sync scheduler asks (which jobs are due). The jobs layer never
// imports sync.
import type { SchedulerRules } from '../../jobs/scheduler';
import type { JobFailure, JobHandlers, JobRun } from '../../jobs/types';
import type { JobRow } from '../../jobs/queue';
import type { AppContext } from '../../http/context';
import { claimDueAutomaticJobs } from './automatic-sync';
import { runExport } from './export-job';
import { runImport } from './import-job';
import { markCredentialsRefused, markSetupFailed } from './provider-account-service';
import { runProviderSetup } from './setup-job';

/** Any sync job whose API key is refused leaves the provider account needing a reconnect. */
async function failed(ctx: AppContext, job: JobRow, failure: JobFailure): Promise<void> {
  if (failure.cause === 'credentials-refused') await markCredentialsRefused(ctx, job.business_account_id);
}

export const syncJobHandlers: Pick<JobHandlers, 'IMPORT' | 'EXPORT' | 'PROVIDER_SETUP'> = {
  IMPORT: { run: async (run: JobRun) => ({ ...(await runImport(run)) }), failed },
  EXPORT: { run: async (run: JobRun) => ({ ...(await runExport(run)) }), failed },
  PROVIDER_SETUP: {
    run: runProviderSetup,
    async failed(ctx, job, failure) {
      if (failure.cause === 'credentials-refused') await markCredentialsRefused(ctx, job.business_account_id);
      else await markSetupFailed(ctx, job.business_account_id, failure.reason);
    },
  },
};

export const automaticSyncRules: SchedulerRules = { claimDueJobs: claimDueAutomaticJobs };
