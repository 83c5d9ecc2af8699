// The job run an optimisation is followed with: the schedule feature's create, poll and cancel calls given to the app's
// jobRun machine, which the optimisation run invokes while the run is created and solves.
import { fromPromise } from 'xstate';
import type { ApiClient } from '../../../api/client';
import { cancelOptimization, createOptimization, fetchOptimization, type OptimizationRequest } from '../../../api/optimizations';
import type { AppMachines } from '../../../app/services';
import type { RunJob } from '../../../machines/jobRun';

export function optimisationJobRun(jobRun: AppMachines['jobRun'], api: ApiClient): AppMachines['jobRun'] {
  return jobRun.provide({
    actors: {
      // The optimisation run passes its request (checked by requestProblem) as the job run's.
      createJob: fromPromise<RunJob, { request: unknown }>(({ input }) => createOptimization(api, input.request as OptimizationRequest)),
      // The signal aborts the request when polling stops (cancel, close).
      pollJob: fromPromise<RunJob, { job: RunJob }>(({ input, signal }) => fetchOptimization(api, input.job.id, signal)),
      cancelJob: fromPromise<RunJob, { job: RunJob }>(({ input }) => cancelOptimization(api, input.job.id)),
    },
  });
}
