// The CARE_ALLOCATION job: plans the allocation's open visits (allocation.ts) and stores the proposal (DONE), or why it
// could not (ERROR, not retried).
import { JobFailedError, type JobHandlers, type JobRun } from '../../jobs/types';
import { allocate } from './allocation';
import { allocationOfJob, updateAllocation } from './repository';

async function runAllocation(run: JobRun): Promise<Record<string, unknown>> {
  const allocation = await allocationOfJob(run.ctx.db, run.job.id);
  if (!allocation) throw new JobFailedError('The allocation of this job no longer exists.');
  let result;
  try {
    result = await allocate(run.ctx, allocation.business_account_id, allocation.start_date, allocation.end_date);
  } catch (error) {
    if (run.signal.aborted) throw error;
    const message = `The allocation could not be worked out: ${(error as Error).message}`;
    await run.ctx.db.transaction(async (tx) => {
      await run.guard(tx);
      await updateAllocation(tx, allocation.id, { status: 'ERROR', message });
    });
    throw new JobFailedError(message);
  }
  await run.ctx.db.transaction(async (tx) => {
    await run.guard(tx);
    await updateAllocation(tx, allocation.id, { status: 'DONE', result: { ...result } });
  });
  return { allocation_id: allocation.id, placed: result.figures.placed, unplaced: result.figures.unplaced };
}

export const careJobHandlers: Pick<JobHandlers, 'CARE_ALLOCATION'> = {
  CARE_ALLOCATION: {
    run: runAllocation,
    // The worker gave up on it (stopped responding too often): the allocation says so instead of running for ever.
    async failed(ctx, job, failure) {
      const allocation = await allocationOfJob(ctx.db, job.id);
      if (allocation?.status !== 'RUNNING') return;
      const reason = failure.cause === 'gave-up' ? failure.reason : 'The practice management system refused the connection.';
      await updateAllocation(ctx.db, allocation.id, { status: 'ERROR', message: reason });
    },
  },
};
