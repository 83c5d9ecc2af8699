// The job worker and scheduler as the server starts them: given every module's job handlers and the scheduler's rules
// (automatic sync, reminders).
import type { Db } from '../../../server/src/db/client';
import type { AppContext } from '../../../server/src/http/context';
import { scheduleAutomaticSync as schedule, scheduleReminders as remind } from '../../../server/src/jobs/scheduler';
import { drainJobs as drain, startWorker as start, type Worker, type WorkerOptions } from '../../../server/src/jobs/worker';
import { automaticSyncRules, jobHandlers } from '../../../server/src/modules/job-handlers';

export { latestSlot } from '../../../server/src/jobs/scheduler';
export { RECONNECT_MESSAGE, waitForJob } from '../../../server/src/jobs/worker';

export const drainJobs = (ctx: AppContext, options: WorkerOptions = {}): Promise<void> => drain(ctx, jobHandlers, options);
export const startWorker = (ctx: AppContext, options: WorkerOptions = {}): Worker => start(ctx, jobHandlers, options);
export const scheduleAutomaticSync = (db: Db, now?: Date): Promise<number[]> => schedule(db, automaticSyncRules, now);
export const scheduleReminders = (db: Db, now?: Date): Promise<number[]> => remind(db, automaticSyncRules, now);
