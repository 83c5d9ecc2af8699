// Optimising a day: the coordinator chooses the day, the practitioners and the mode (configure), the run is
// created (submitting) and followed while it solves (running: its progress is fetched every JOB_POLL_INTERVAL_MS; it can be
// cancelled), and its proposal is shown (proposal) until it is applied (applying → applied) or discarded. A proposal
// the server refuses to apply because the day changed (409) is outdated: the only way on is to run the day again.
// Closing the dialog while the run solves cancels it, so that it does not hold the day for another run; closing a
// proposal asks first whether to discard it (confirmingDiscard), and only Discard throws it away.
import { assign, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { apiClient } from '../api/session';
import { ApiError, errorLinesFrom, messagesOfError } from '../api/errors';
import {
  OPTIMIZATION_ERRORS,
  applyOptimization,
  cancelOptimization,
  createOptimization,
  discardOptimization,
  fetchOptimization,
  type AppliedOptimization,
  type Optimization,
  type OptimizationRequest,
} from '../api/optimizations';
import { isActiveStatus, JOB_POLL_INTERVAL_MS } from '../api/jobs';

export const NO_DATE = 'Choose the day to optimise.';
export const NO_PRACTITIONERS = 'Choose at least one practitioner.';
export const SCHEDULE_CHANGED = 'The schedule changed since this proposal was made. Run the optimisation again.';
export const RUN_FAILED = 'The optimisation failed.';

export interface OptimizationRunContext {
  /** What was (or is about to be) asked for; kept to run the same day again. */
  request: OptimizationRequest | null;
  /** The run as last read from the server: status, progress, proposal. */
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

export const optimizationRunMachine = setup({
  types: {
    context: {} as OptimizationRunContext,
    events: {} as OptimizationRunEvent,
  },
  delays: {
    pollInterval: JOB_POLL_INTERVAL_MS,
  },
  actors: {
    createOptimization: fromPromise<Optimization, OptimizationRequest>(({ input }) => createOptimization(apiClient, input)),
    // The signal aborts the request when polling stops (cancel, close).
    fetchOptimization: fromPromise<Optimization, { id: number }>(({ input, signal }) => fetchOptimization(apiClient, input.id, signal)),
    cancelOptimization: fromPromise<Optimization, { id: number }>(({ input }) => cancelOptimization(apiClient, input.id)),
    applyOptimization: fromPromise<AppliedOptimization, { id: number; date: string; notifyClients: boolean }>(
      ({ input }) => applyOptimization(apiClient, input.id, { notifyClients: input.notifyClients }),
    ),
    discardOptimization: fromPromise<Optimization, { id: number }>(({ input }) => discardOptimization(apiClient, input.id)),
  },
  guards: {
    requestRefused: (_, params: { request: OptimizationRequest }) => requestProblem(params.request) !== null,
    runIsActive: ({ context }) => context.run !== null && isActiveStatus(context.run.status),
    hasProposal: ({ context }) => context.run?.status === 'COMPLETE' && context.run.proposal !== null,
    runWasCancelled: ({ context }) => context.run?.status === 'CANCELLED',
    isConflict: (_, params: { error: unknown }) => isConflict(params.error),
  },
  actions: {
    refuseRequest: assign((_, params: { request: OptimizationRequest }) => ({ problems: [requestProblem(params.request)!] })),
    assignRequest: assign((_, params: { request: OptimizationRequest }) => ({ request: params.request, run: null, problems: [] })),
    assignRun: assign((_, params: { run: Optimization }) => ({ run: params.run })),
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
          { target: 'submitting', actions: { type: 'assignRequest', params: ({ event }) => ({ request: event.request }) } },
        ],
        CLOSE: 'closed',
      },
    },
    submitting: {
      invoke: {
        id: 'create',
        src: 'createOptimization',
        input: ({ context }) => context.request!,
        onDone: { target: 'running', actions: { type: 'assignRun', params: ({ event }) => ({ run: event.output }) } },
        // 422 (a practitioner without hours or a start place) and 409 (another run of the day) go back to the choices.
        onError: { target: 'configure', actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.error, fallback: OPTIMIZATION_ERRORS.create }) } },
      },
    },
    running: {
      initial: 'checking',
      on: {
        CANCEL: 'cancelling',
        CLOSE: 'closing',
      },
      states: {
        checking: {
          always: [
            { guard: 'runIsActive', target: 'waiting' },
            { guard: 'hasProposal', target: '#optimizationRun.proposal', actions: 'clearProblems' },
            { guard: 'runWasCancelled', target: '#optimizationRun.cancelled', actions: 'clearProblems' },
            { target: '#optimizationRun.failed', actions: 'assignRunFailure' },
          ],
        },
        waiting: {
          after: { pollInterval: 'polling' },
        },
        polling: {
          invoke: {
            id: 'poll',
            src: 'fetchOptimization',
            input: ({ context }) => ({ id: context.run!.id }),
            onDone: { target: 'checking', actions: { type: 'assignRun', params: ({ event }) => ({ run: event.output }) } },
            onError: {
              target: '#optimizationRun.failed',
              actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.error, fallback: OPTIMIZATION_ERRORS.poll }) },
            },
          },
        },
      },
    },
    cancelling: {
      invoke: {
        id: 'cancel',
        src: 'cancelOptimization',
        input: ({ context }) => ({ id: context.run!.id }),
        onDone: { target: 'running', actions: { type: 'assignRun', params: ({ event }) => ({ run: event.output }) } },
        // Too late (409: it finished meanwhile) or not reachable: keep following the run, saying why it goes on.
        onError: { target: 'running', actions: { type: 'assignProblems', params: ({ event }) => ({ error: event.error, fallback: OPTIMIZATION_ERRORS.cancel }) } },
      },
    },
    closing: {
      invoke: {
        id: 'cancelOnClose',
        src: 'cancelOptimization',
        input: ({ context }) => ({ id: context.run!.id }),
        onDone: 'closed',
        onError: 'closed',
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
    outdated: {
      on: {
        RUN_AGAIN: { target: 'submitting', actions: 'forgetRun' },
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
