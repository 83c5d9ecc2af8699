// The bookings module's job (merged with the other modules' in ../job-handlers.ts): one write of a visit to the PMS.
import type { JobHandlers, JobRun } from '../../jobs/types';
import { pmsWriteFailed, runPmsWrite } from './write-job';

export const bookingJobHandlers: Pick<JobHandlers, 'PMS_WRITE'> = {
  PMS_WRITE: { run: (run: JobRun) => runPmsWrite(run), failed: pmsWriteFailed },
};
