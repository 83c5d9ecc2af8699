// What a job handler gets from the worker that runs it, and what the worker is given: a handler per job kind. The
// jobs layer knows no job's content; the modules that own the work (sync) hand their handlers to whoever starts a worker.
import type { JobKind } from '../db/schema-jobs';
import type { AppContext } from '../http/context';
import type { AdapterTuning } from '../pms';
import type { Tx } from '../db/client';
import type { JobRow } from './queue';

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
  /**
   * Between the steps of a long job (with what is done so far saved): when another business's job waits for this
   * lane's slot and has waited longer, throws JobInterrupted('gave_way') and the job goes back to the queue, to be
   * taken again in its turn.
   */
  giveWayIfOthersWait(): Promise<void>;
}

/** A job's result object, stored in jobs.result. */
export type JobResult = Record<string, unknown>;

/** Why a job ended in ERROR, for its handler's own bookkeeping (the worker has already worded the job's message). */
export type JobFailure =
  /** The practice management system refused the API key; called before the job is failed. */
  | { cause: 'credentials-refused' }
  /**
   * The job failed for good (tried too often, or an error that retrying does not fix); called after it is failed.
   * `abandoned`: the workers running it stopped responding each time (a crash, a lost lease), so its last try's outcome
   * is unknown.
   */
  | { cause: 'gave-up'; reason: string; abandoned?: boolean };

export interface JobHandler {
  run(run: JobRun): Promise<JobResult | null>;
  /** Bookkeeping outside the job row when the job fails (never for a cancelled or interrupted job). */
  failed?(ctx: AppContext, job: JobRow, failure: JobFailure): Promise<void>;
}

/**
 * Thrown by a handler for a failure its message explains to the user (e.g. a practitioner's start place was removed
 * before an optimisation ran): the job ends in ERROR with that message and is not retried.
 */
export class JobFailedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JobFailedError';
  }
}

/** The handler of every job kind: what a worker runs. */
export type JobHandlers = Record<JobKind, JobHandler>;
