// Watches one import or export job after it is created: the status is fetched every
// JOB_POLL_INTERVAL_MS (as an optimisation run's) until it is neither PENDING nor INPROGRESS, then `completed` is emitted. A failed poll stops
// polling. Closing the import modal stops polling; an export keeps polling in the background.
import { assign, emit, fromPromise, setup } from 'xstate';
import { apiClient } from '../api/session';
import { messageOfError } from '../api/errors';
import { fetchJob, isActiveStatus, JOB_POLL_INTERVAL_MS, type JobKind, type SyncJob } from '../api/jobs';

export interface JobPollingInput {
  kind: JobKind;
}

export interface JobPollingContext {
  kind: JobKind;
  job: SyncJob | null;
  pollError: string | null;
  /** The modal was closed while the job kept running (exports only). */
  detached: boolean;
}

export type JobPollingEvent =
  /** A job was just created: start watching it. */
  | { type: 'TRACK'; job: SyncJob }
  /** The user closed the modal showing the job. */
  | { type: 'CLOSE' };

export type JobPollingEmitted =
  | { type: 'completed'; job: SyncJob; detached: boolean }
  | { type: 'pollFailed'; message: string; detached: boolean };

export interface FetchJobInput {
  kind: JobKind;
  id: number;
}

export const jobPollingMachine = setup({
  types: {
    context: {} as JobPollingContext,
    events: {} as JobPollingEvent,
    input: {} as JobPollingInput | undefined,
    emitted: {} as JobPollingEmitted,
  },
  delays: {
    pollInterval: JOB_POLL_INTERVAL_MS,
  },
  actors: {
    // The signal aborts the request when the polling state is left (closing, stopping the actor).
    fetchJob: fromPromise<SyncJob, FetchJobInput>(({ input, signal }) => fetchJob(apiClient, input.kind, input.id, signal)),
  },
  guards: {
    jobIsActive: ({ context }) => context.job !== null && isActiveStatus(context.job.status),
    stopsOnClose: ({ context }) => context.kind === 'import',
  },
  actions: {
    assignJob: assign((_, params: { job: SyncJob }) => ({ job: params.job })),
    assignPollError: assign(({ context }, params: { error: unknown }) => ({
      pollError: messageOfError(params.error, `An error has occurred. Could not load the ${context.kind} status.`),
    })),
    detach: assign({ detached: true }),
    emitCompleted: emit(({ context }) => ({ type: 'completed' as const, job: context.job!, detached: context.detached })),
    emitPollFailed: emit(({ context }) => ({ type: 'pollFailed' as const, message: context.pollError ?? '', detached: context.detached })),
  },
}).createMachine({
  id: 'jobPolling',
  context: ({ input }) => ({ kind: input?.kind ?? 'import', job: null, pollError: null, detached: false }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        TRACK: { target: 'tracking', actions: { type: 'assignJob', params: ({ event }) => ({ job: event.job }) } },
      },
    },
    tracking: {
      initial: 'checking',
      on: {
        CLOSE: [{ guard: 'stopsOnClose', target: 'stopped' }, { actions: 'detach' }],
      },
      states: {
        checking: {
          always: [{ guard: 'jobIsActive', target: 'waiting' }, { target: '#jobPolling.finished' }],
        },
        waiting: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          invoke: {
            id: 'fetchJob',
            src: 'fetchJob',
            input: ({ context }) => ({ kind: context.kind, id: context.job!.id }),
            onDone: { target: 'checking', actions: { type: 'assignJob', params: ({ event }) => ({ job: event.output }) } },
            onError: {
              target: '#jobPolling.failed',
              actions: { type: 'assignPollError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    finished: { type: 'final', entry: 'emitCompleted' },
    failed: { type: 'final', entry: 'emitPollFailed' },
    stopped: { type: 'final' },
  },
});
