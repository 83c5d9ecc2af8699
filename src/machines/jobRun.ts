// One job the user starts and follows to its end, whichever it is (an import, an export, an optimisation run). The job
// is created here (the input's request: submitting) or handed over once created (FOLLOW), read again every
// JOB_POLL_INTERVAL_MS while it is PENDING or INPROGRESS (running), and the run ends finished (the job's last status),
// failed (creating it or a poll failed) or stopped (closed and no longer followed). CANCEL asks the server to cancel it
// and goes on following it (to CANCELLED, or to its end when it was too late). What closing does is the input's
// `whenClosed`: stop following (an import), keep following in the background (an export; `detached` says the end is
// told to no view), or cancel the job first (an optimisation run, which must not hold the day).
// The calls are the feature's: it gives createJob, pollJob and cancelJob with `.provide()`.
import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { isActiveStatus, JOB_POLL_INTERVAL_MS, type JobStatus } from '../api/jobs';

/** What the machine reads of a job; the feature's calls return its own job type, which its views read back. */
export interface RunJob {
  id: number;
  status: JobStatus;
}

export type WhenClosed = 'stop' | 'keepGoing' | 'cancel';

export interface JobRunInput {
  whenClosed: WhenClosed;
  /** Create the job from this request at once; without one, the run waits for a created job (FOLLOW). */
  request?: unknown;
}

export interface JobRunContext {
  whenClosed: WhenClosed;
  request: unknown;
  /** The job as last read from the server. */
  job: RunJob | null;
  /** The last call that failed (create, poll or cancel), for the feature to word; null when none did. */
  error: unknown;
  /** The view was closed while the job kept running (whenClosed: keepGoing). */
  detached: boolean;
}

export type JobRunEvent =
  /** A job created elsewhere (the sync form): follow it. */
  | { type: 'FOLLOW'; job: RunJob }
  | { type: 'CANCEL' }
  /** The user closed the view showing the job. */
  | { type: 'CLOSE' };

export type JobRunEmitted =
  | { type: 'finished'; job: RunJob; detached: boolean }
  | { type: 'failed'; error: unknown; detached: boolean };

/** How the run ended: the job's end followed to it, a call that failed, or closed and no longer followed. */
export type JobRunEnd = 'finished' | 'failed' | 'stopped';

export interface JobRunOutput {
  job: RunJob | null;
  error: unknown;
  ended: JobRunEnd;
}

const notProvided = (call: string) => () => Promise.reject(new Error(`jobRun: the feature gives ${call} with .provide()`));

export const jobRunMachine = setup({
  types: {
    context: {} as JobRunContext,
    events: {} as JobRunEvent,
    input: {} as JobRunInput,
    emitted: {} as JobRunEmitted,
    output: {} as JobRunOutput,
  },
  delays: {
    pollInterval: JOB_POLL_INTERVAL_MS,
  },
  actors: {
    createJob: fromPromise<RunJob, { request: unknown }>(notProvided('createJob')),
    // The signal aborts the request when the polling state is left (closing, stopping the actor).
    pollJob: fromPromise<RunJob, { job: RunJob }>(notProvided('pollJob')),
    cancelJob: fromPromise<RunJob, { job: RunJob }>(notProvided('cancelJob')),
  },
  guards: {
    hasRequest: ({ context }) => context.request !== undefined,
    jobIsActive: ({ context }) => context.job !== null && isActiveStatus(context.job.status),
    stopsOnClose: ({ context }) => context.whenClosed === 'stop',
    cancelsOnClose: ({ context }) => context.whenClosed === 'cancel',
  },
  actions: {
    assignJob: assign((_, params: { job: RunJob }) => ({ job: params.job })),
    assignError: assign((_, params: { error: unknown }) => ({ error: params.error })),
    detach: assign({ detached: true }),
    emitFinished: emit(({ context }) => ({ type: 'finished' as const, job: context.job!, detached: context.detached })),
    emitFailed: emit(({ context }) => ({ type: 'failed' as const, error: context.error, detached: context.detached })),
  },
}).createMachine({
  id: 'jobRun',
  context: ({ input }) => ({ whenClosed: input.whenClosed, request: input.request, job: null, error: null, detached: false }),
  initial: 'idle',
  states: {
    idle: {
      always: { guard: 'hasRequest', target: 'submitting' },
      on: {
        FOLLOW: { target: 'running', actions: { type: 'assignJob', params: ({ event }) => ({ job: event.job }) } },
      },
    },
    submitting: {
      invoke: {
        id: 'createJob',
        src: 'createJob',
        input: ({ context }) => ({ request: context.request }),
        onDone: { target: 'running', actions: { type: 'assignJob', params: ({ event }) => ({ job: event.output }) } },
        onError: { target: 'failed', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    running: {
      initial: 'checking',
      on: {
        CANCEL: 'cancelling',
        CLOSE: [{ guard: 'stopsOnClose', target: 'stopped' }, { guard: 'cancelsOnClose', target: 'closing' }, { actions: 'detach' }],
      },
      states: {
        checking: {
          always: [{ guard: 'jobIsActive', target: 'waiting' }, { target: '#jobRun.finished' }],
        },
        waiting: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          invoke: {
            id: 'pollJob',
            src: 'pollJob',
            input: ({ context }) => ({ job: context.job! }),
            onDone: { target: 'checking', actions: { type: 'assignJob', params: ({ event }) => ({ job: event.output }) } },
            onError: { target: '#jobRun.failed', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
          },
        },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancelJob',
        src: 'cancelJob',
        input: ({ context }) => ({ job: context.job! }),
        onDone: { target: 'running', actions: { type: 'assignJob', params: ({ event }) => ({ job: event.output }) } },
        // Too late (it ended meanwhile) or not reachable: the job is followed on, with the reason kept.
        onError: { target: 'running', actions: { type: 'assignError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    closing: {
      invoke: {
        id: 'cancelOnClose',
        src: 'cancelJob',
        input: ({ context }) => ({ job: context.job! }),
        onDone: 'stopped',
        onError: 'stopped',
      },
    },
    // Each end's output is its name, which the machine's output passes on as `ended`.
    finished: { type: 'final', entry: 'emitFinished', output: 'finished' },
    failed: { type: 'final', entry: 'emitFailed', output: 'failed' },
    stopped: { type: 'final', output: 'stopped' },
  },
  output: ({ context, event }) => ({ job: context.job, error: context.error, ended: event.output as JobRunEnd }),
});

export type JobRunSnapshot = SnapshotFrom<typeof jobRunMachine>;
