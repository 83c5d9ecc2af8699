// The job worker and scheduler as the server starts them: given every module's job handlers and the scheduler's rules
// (automatic sync, reminders).
import type { Db } from '../../../server/src/db/client';
import { optimizationRuns } from '../../../server/src/db/schema-optimizations';
import type { AppContext } from '../../../server/src/http/context';
import { enqueueJob, type JobRow } from '../../../server/src/jobs/queue';
import { scheduleAutomaticSync as schedule, scheduleReminders as remind } from '../../../server/src/jobs/scheduler';
import { drainJobs as drain, startWorker as start, type Worker, type WorkerOptions } from '../../../server/src/jobs/worker';
import { automaticSyncRules, jobHandlers } from '../../../server/src/modules/job-handlers';

export { latestSlot } from '../../../server/src/jobs/scheduler';
export { RECONNECT_MESSAGE, waitForJob } from '../../../server/src/jobs/worker';

export const drainJobs = (ctx: AppContext, options: WorkerOptions = {}): Promise<void> => drain(ctx, jobHandlers, options);
export const startWorker = (ctx: AppContext, options: WorkerOptions = {}): Worker => start(ctx, jobHandlers, options);
export const scheduleAutomaticSync = (db: Db, now?: Date): Promise<number[]> => schedule(db, automaticSyncRules, now);
export const scheduleReminders = (db: Db, now?: Date): Promise<number[]> => remind(db, automaticSyncRules, now);

/** An optimisation run of one day queued as POST /optimizations queues one (its job and its record), without the endpoint's checks. */
export async function queueOptimizationRun(db: Db, businessAccountId: number, date: string, practitionerIds: number[]): Promise<JobRow> {
  const job = await enqueueJob(db, { businessAccountId, kind: 'OPTIMIZE' });
  await db.insert(optimizationRuns).values({
    job_id: job.id, business_account_id: businessAccountId, first_date: date, last_date: date, mode: 'keep_practitioners', practitioner_ids: practitionerIds,
  });
  return job;
}
