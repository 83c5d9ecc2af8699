// What a job handler gets from the worker that runs it.
import type { AppContext } from '../http/context';
import type { AdapterTuning } from '../pms-connection/factory';
import type { JobRow, Tx } from './queue';

export interface JobRun {
  ctx: AppContext;
  job: JobRow;
  workerId: string;
  /** Aborted when the job is cancelled, its lease is lost or the worker closes. */
  signal: AbortSignal;
  /** Adapter overrides (tests: short timeouts; bench: a scaled rate-limit window). */
  tuning: AdapterTuning;
  /** Call first in every transaction that writes a job's data: locks the job row and checks it is still held. */
  guard(tx: Tx): Promise<void>;
}

/** A job's result object, stored in sync_jobs.result. */
export type JobResult = Record<string, unknown>;
export type JobHandler = (run: JobRun) => Promise<JobResult | null>;
