// Optimising a day: the coordinator chooses the day, the practitioners and the mode (configure), the run is created
// and followed while it solves (following: a job run, src/machines/jobRun.ts, whose steps are submitting, running —
// its progress fetched every JOB_POLL_INTERVAL_MS —, cancelling and closing; the feature gives it its calls), and its
// proposal is shown (proposal) until it is applied (applying → applied) or discarded. A proposal the server refuses
// to apply because the day changed (409) is outdated: the only way on is to run the day again.
// Closing the dialog while the run solves cancels it (the job run's whenClosed: 'cancel'), so that it does not hold the
// day for another run; closing a proposal asks first whether to discard it (confirmingDiscard), and only Discard throws
// it away.
import { assign, fromPromise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { apiClient } from '../api/session';
import { ApiError, errorLinesFrom, messagesOfError } from '../api/errors';
import {
  OPTIMIZATION_ERRORS,
  applyOptimization,
  discardOptimization,
  type AppliedOptimization,
  type Optimization,
  type OptimizationRequest,
} from '../api/optimizations';
import { jobRunMachine, type JobRunOutput, type JobRunSnapshot } from './jobRun';

export const NO_DATE = 'Choose the day to optimise.';
export const NO_PRACTITIONERS = 'Choose at least one practitioner.';
export const SCHEDULE_CHANGED = 'The schedule changed since this proposal was made. Run the optimisation again.';
export const RUN_FAILED = 'The optimisation failed.';

export interface OptimizationRunContext {
  /** What was (or is about to be) asked for; kept to run the same day again. */
  request: OptimizationRequest | null;
  /** The run as its job run last read it (once that ended): status, proposal; while it is followed, see runShown. */
  run: Optimization | null;
  /** What went wrong, one line each (a refused start names each practitioner without hours or a start place). */
  problems: string[];
  /** Whether Apply (as last asked) tells the clients whose arrival moves. */
  notifyClients: boolean;
}

export type OptimizationRunEvent =
  | { type: 'START'; request: OptimizationRequest }
  | { type: 'CANCEL' }
  /** notifyClients: tell the clients whose arrival moves (the business's ETA messages). */
  | { type: 'APPLY'; notifyClients?: boolean }
  | { type: 'DISCARD' }
  /** Run the same day again (after the schedule changed under a proposal). */
  | { type: 'RUN_AGAIN' }
  /** Discard the proposal and run the same request again with a new seed: another plan of the day. */
  | { type: 'TRY_ANOTHER' }
  /** Back to the choices (after a cancelled or failed run). */
  | { type: 'EDIT' }
  /** Keep the proposal after closing asked whether to discard it. */
  | { type: 'KEEP' }
  | { type: 'CLOSE' };

export type OptimizationRunSnapshot = SnapshotFrom<typeof optimizationRunMachine>;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Why the request cannot be sent as it is, or null. */
export function requestProblem(request: OptimizationRequest): string | null {
  if (!ISO_DATE.test(request.date)) return NO_DATE;
  if (request.practitioner_ids !== undefined && request.practitioner_ids.length === 0) return NO_PRACTITIONERS;
  return null;
}

const FIELD_PREFIX = /^(date|end_date|practitioner_ids|mode): /;

/**
 * The lines to show for a failed call: a 422 lists each of its errors without the field's name in front
 * ("practitioner_ids: Amelia Brown has no working hours on Wednesdays…" reads "Amelia Brown has no working hours…");
 * anything else its message.
 */
export function problemsOf(error: unknown, fallback: string): string[] {
  if (error instanceof ApiError && error.status === 422) {
    const { errors } = (typeof error.body === 'object' && error.body !== null ? error.body : {}) as { errors?: unknown };
    const lines = Array.isArray(errors) ? errors.filter((entry): entry is string => typeof entry === 'string' && entry.trim() !== '') : [];
    return (lines.length > 0 ? lines : errorLinesFrom(error.body, fallback)).map((line) => line.replace(FIELD_PREFIX, ''));
  }
  return messagesOfError(error, fallback);
}

export const isConflict = (error: unknown): boolean => error instanceof ApiError && error.status === 409;

/** The run a job run's output holds: the feature's calls return the optimisation, which the job run keeps as its job. */
const runOf = (output: JobRunOutput) => output.job as Optimization | null;

export const optimizationRunMachine = setup({
  types: {
    context: {} as OptimizationRunContext,
    events: {} as OptimizationRunEvent,
    children: {} as { job: 'jobRun' },
  },
  actors: {
    // Creates, follows and cancels the run; the feature gives its calls with `.provide()`.
    jobRun: jobRunMachine,
    applyOptimization: fromPromise<AppliedOptimization, { id: number; date: string; notifyClients: boolean }>(
      ({ input }) => applyOptimization(apiClient, input.id, { notifyClients: input.notifyClients }),
    ),
    discardOptimization: fromPromise<Optimization, { id: number }>(({ input }) => discardOptimization(apiClient, input.id)),
  },
  guards: {
    requestRefused: (_, params: { request: OptimizationRequest }) => requestProblem(params.request) !== null,
    notCreated: (_, params: { output: JobRunOutput }) => params.output.job === null,
    followingFailed: (_, params: { output: JobRunOutput }) => params.output.ended === 'failed',
    stopped: (_, params: { output: JobRunOutput }) => params.output.ended === 'stopped',
    hasProposal: (_, params: { output: JobRunOutput }) => {
      const run = runOf(params.output);
      return run?.status === 'COMPLETE' && run.proposal !== null;
    },
    runWasCancelled: (_, params: { output: JobRunOutput }) => runOf(params.output)?.status === 'CANCELLED',
    isConflict: (_, params: { error: unknown }) => isConflict(params.error),
  },
  actions: {
    refuseRequest: assign((_, params: { request: OptimizationRequest }) => ({ problems: [requestProblem(params.request)!] })),
    assignRequest: assign((_, params: { request: OptimizationRequest }) => ({ request: params.request, run: null, problems: [] })),
    assignRun: assign((_, params: { run: Optimization | null }) => ({ run: params.run })),
    assignProblems: assign((_, params: { error: unknown; fallback: string }) => ({ problems: problemsOf(params.error, params.fallback) })),
    // A 409 on apply is worded by the server ("The schedule changed since…"); without words, the usual reason.
    assignOutdated: assign((_, params: { error: unknown }) => ({ problems: problemsOf(params.error, SCHEDULE_CHANGED) })),
    assignRunFailure: assign(({ context }) => ({ problems: [context.run?.error_message || RUN_FAILED] })),
    clearProblems: assign({ problems: [] }),
    assignNotifyClients: assign((_, params: { notifyClients: boolean }) => ({ notifyClients: params.notifyClients })),
    forgetRun: assign({ run: null, problems: [] }),
  },
}).createMachine({
  id: 'optimizationRun',
  context: { request: null, run: null, problems: [], notifyClients: false },
  initial: 'configure',
  states: {
    configure: {
      on: {
        START: [
          { guard: { type: 'requestRefused', params: ({ event }) => ({ request: event.request }) }, actions: { type: 'refuseRequest', params: ({ event }) => ({ request: event.request }) } },
          { target: 'following', actions: { type: 'assignRequest', params: ({ event }) => ({ request: event.request }) } },
        ],
        CLOSE: 'closed',
      },
    },
    following: {
      invoke: {
        id: 'job',
        src: 'jobRun',
        input: ({ context }) => ({ whenClosed: 'cancel' as const, request: context.request! }),
        onDone: [
          // 422 (a practitioner without hours or a start place) and 409 (another run of the day) go back to the choices.
          {
            guard: { type: 'notCreated', params: ({ event }) => ({ output: event.output }) },
            target: 'configure',
            actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.output.error, fallback: OPTIMIZATION_ERRORS.create }) },
          },
          {
            guard: { type: 'followingFailed', params: ({ event }) => ({ output: event.output }) },
            target: 'failed',
            actions: [
              { type: 'assignRun', params: ({ event }) => ({ run: runOf(event.output) }) },
              { type: 'assignProblems', params: ({ event }) => ({ error: event.output.error, fallback: OPTIMIZATION_ERRORS.poll }) },
            ],
          },
          // Closed while it solved: the run was cancelled first.
          { guard: { type: 'stopped', params: ({ event }) => ({ output: event.output }) }, target: 'closed' },
          {
            guard: { type: 'hasProposal', params: ({ event }) => ({ output: event.output }) },
            target: 'proposal',
            actions: [{ type: 'assignRun', params: ({ event }) => ({ run: runOf(event.output) }) }, 'clearProblems'],
          },
          {
            guard: { type: 'runWasCancelled', params: ({ event }) => ({ output: event.output }) },
            target: 'cancelled',
            actions: [{ type: 'assignRun', params: ({ event }) => ({ run: runOf(event.output) }) }, 'clearProblems'],
          },
          { target: 'failed', actions: [{ type: 'assignRun', params: ({ event }) => ({ run: runOf(event.output) }) }, 'assignRunFailure'] },
        ],
      },
      on: {
        // The job run cancels the run it follows, or keeps following one it was too late to cancel (saying why).
        CANCEL: { actions: sendTo('job', { type: 'CANCEL' }) },
        // Ignored while the run is being created; while it solves, the job run cancels it and stops.
        CLOSE: { actions: sendTo('job', { type: 'CLOSE' }) },
      },
    },
    proposal: {
      initial: 'reviewing',
      on: {
        DISCARD: { target: 'discarding', actions: 'clearProblems' },
      },
      states: {
        reviewing: {
          on: {
            APPLY: {
              target: '#optimizationRun.applying',
              actions: ['clearProblems', { type: 'assignNotifyClients', params: ({ event }) => ({ notifyClients: event.notifyClients === true }) }],
            },
            // Closing would throw the finished search away: the user is asked first ("Discard this proposal?").
            CLOSE: 'confirmingDiscard',
            TRY_ANOTHER: { target: '#optimizationRun.discardingForAnother', actions: 'clearProblems' },
          },
        },
        confirmingDiscard: { on: { KEEP: 'reviewing' } },
      },
    },
    applying: {
      invoke: {
        id: 'apply',
        src: 'applyOptimization',
        input: ({ context }) => ({ id: context.run!.id, date: context.run!.date, notifyClients: context.notifyClients }),
        onDone: { target: 'applied', actions: { type: 'assignRun', params: ({ event }) => ({ run: event.output.optimization }) } },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) }, target: 'outdated', actions: { type: 'assignOutdated', params: ({ event }) => ({ error: event.error }) } },
          { target: 'proposal', actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.error, fallback: OPTIMIZATION_ERRORS.apply }) } },
        ],
      },
    },
    discarding: {
      invoke: {
        id: 'discard',
        src: 'discardOptimization',
        input: ({ context }) => ({ id: context.run!.id }),
        onDone: { target: 'discarded', actions: { type: 'assignRun', params: ({ event }) => ({ run: event.output }) } },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) }, target: 'outdated', actions: { type: 'assignOutdated', params: ({ event }) => ({ error: event.error }) } },
          { target: 'proposal', actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.error, fallback: OPTIMIZATION_ERRORS.discard }) } },
        ],
      },
    },
    // "Try another plan": this proposal is discarded, then the same request runs again (its run gets a new seed).
    discardingForAnother: {
      invoke: {
        id: 'discard',
        src: 'discardOptimization',
        input: ({ context }) => ({ id: context.run!.id }),
        onDone: { target: 'following', actions: 'forgetRun' },
        onError: [
          { guard: { type: 'isConflict', params: ({ event }) => ({ error: event.error }) }, target: 'outdated', actions: { type: 'assignOutdated', params: ({ event }) => ({ error: event.error }) } },
          { target: 'proposal', actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.error, fallback: OPTIMIZATION_ERRORS.discard }) } },
        ],
      },
    },
    outdated: {
      on: {
        RUN_AGAIN: { target: 'following', actions: 'forgetRun' },
        CLOSE: 'closed',
      },
    },
    cancelled: {
      on: {
        EDIT: { target: 'configure', actions: 'forgetRun' },
        CLOSE: 'closed',
      },
    },
    failed: {
      on: {
        EDIT: { target: 'configure', actions: 'forgetRun' },
        CLOSE: 'closed',
      },
    },
    applied: { type: 'final' },
    discarded: { type: 'final' },
    closed: { type: 'final' },
  },
});

/** The job run's snapshot while the run is created and solves (following), or undefined. */
export const followedJobOf = (snapshot: OptimizationRunSnapshot): JobRunSnapshot | undefined => snapshot.children.job?.getSnapshot();

/**
 * The step the user is at: the run's state, or while it is followed the job run's (submitting, running, cancelling,
 * closing). `job` is the job run's snapshot as the view last read it.
 */
export function stepOf(snapshot: OptimizationRunSnapshot, job = followedJobOf(snapshot)): string {
  const value = snapshot.matches('following') && job ? job.value : snapshot.value;
  return typeof value === 'string' ? value : Object.keys(value)[0];
}

/** The run as last read: while it is followed, the job run's. */
export function runShown(snapshot: OptimizationRunSnapshot, job = followedJobOf(snapshot)): Optimization | null {
  return snapshot.matches('following') && job ? (job.context.job as Optimization | null) : snapshot.context.run;
}

/** What went wrong, one line each: while the run is followed, why a cancel was refused (it is followed on). */
export function problemsShown(snapshot: OptimizationRunSnapshot, job = followedJobOf(snapshot)): string[] {
  if (snapshot.matches('following') && job) return job.context.error === null ? [] : problemsOf(job.context.error, OPTIMIZATION_ERRORS.cancel);
  return snapshot.context.problems;
}
