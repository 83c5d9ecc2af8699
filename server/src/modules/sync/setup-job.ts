// The first pull after a provider account is connected: reference data, then the account becomes ACTIVE.
import type { JobRun } from '../../jobs/types';
import { ProviderAccountUnusableError } from '../../pms';
import { businessTimeZone } from '../../db/business-time-zone';
import { adapterForAccount, findProviderAccount } from './pms-connection';
import { placementFor } from './import-job';
import { markSetupComplete } from './provider-account-service';
import { syncReferenceData } from './reference-sync';

export async function runProviderSetup(run: JobRun) {
  const { ctx, job } = run;
  const account = await findProviderAccount(ctx.db, job.business_account_id);
  if (!account || account.status === 'DISCONNECTED') throw new ProviderAccountUnusableError('The practice management system was disconnected before its data was loaded.');
  const adapter = adapterForAccount(ctx, account, run.tuning);
  const counts = await syncReferenceData(ctx.db, adapter, job.business_account_id, await businessTimeZone(run.ctx.db, run.job.business_account_id), {
    signal: run.signal, guard: run.guard, placement: placementFor(run, adapter),
  });
  await markSetupComplete(ctx, account.id);
  return { ...counts };
}
