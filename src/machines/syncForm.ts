// Submitting the import or export form: missing dates are refused with a toast ('Date range is required') and
// nothing is sent; a range longer than the server accepts is refused with a message on the date field; an export
// asks for confirmation first; a failure shows the server's message (a 422 its message, then its first error when
// that adds something), or the form's fallback ('… Could not create import.'), and leaves an account code to start-up;
// a created job is handed on with `created`.
import { assign, emit, enqueueActions, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { apiClient } from '../api/session';
import { ApiError, errorLinesFrom, isNotActiveCode, isNotSetUpCode } from '../api/errors';
import { CREATE_ERRORS, createJob, type JobKind, type SyncJob, type SyncJobRequest } from '../api/jobs';
import { rangeProblem } from '../lib/syncRange';

export const DATE_RANGE_REQUIRED = 'Date range is required';

/** What the form holds: dates may still be missing. */
export interface SyncDraft {
  start_date: string | null;
  end_date: string | null;
  practitioner_ids: number[];
  appointment_type_ids: number[];
  business_location_ids: number[];
}

export interface SyncFormInput {
  kind: JobKind;
}

export interface SyncFormContext {
  kind: JobKind;
  request: SyncJobRequest | null;
  /** Why the chosen dates were refused, shown on the date field until the next submit. */
  dateProblem: string | null;
}

export type SyncFormEvent =
  | { type: 'SUBMIT'; draft: SyncDraft }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' };

export type NoticeKind = 'success' | 'warning' | 'danger';

export type SyncFormEmitted =
  | { type: 'notice'; text: string; kind: NoticeKind }
  | { type: 'created'; job: SyncJob }
  /** The provider account is not set up or not active; the app-wide start-up machine already tells the user. */
  | { type: 'accountProblem'; code: string };

export function requestFromDraft(draft: SyncDraft): SyncJobRequest | null {
  if (!draft.start_date || !draft.end_date) return null;
  return {
    start_date: draft.start_date,
    end_date: draft.end_date,
    appointment_type_ids: draft.appointment_type_ids,
    practitioner_ids: draft.practitioner_ids,
    business_location_ids: draft.business_location_ids,
  };
}

export interface CreateFailure {
  notices: string[];
  accountCode?: string;
}

function draftRangeProblem(draft: SyncDraft): string | null {
  return draft.start_date && draft.end_date ? rangeProblem(draft.start_date, draft.end_date) : null;
}

/** A 422 shows its message, then the first of its errors when it adds something; account codes are left to start-up. */
export function describeCreateFailure(error: unknown, kind: JobKind): CreateFailure {
  if (!(error instanceof ApiError)) return { notices: [CREATE_ERRORS[kind]] };
  if (isNotSetUpCode(error.code) || isNotActiveCode(error.code)) return { notices: [], accountCode: error.code };
  if (error.status === 422) return { notices: errorLinesFrom(error.body, CREATE_ERRORS[kind]) };
  return { notices: [error.message] };
}

export const syncFormMachine = setup({
  types: {
    context: {} as SyncFormContext,
    events: {} as SyncFormEvent,
    input: {} as SyncFormInput | undefined,
    emitted: {} as SyncFormEmitted,
  },
  actors: {
    createJob: fromPromise<SyncJob, { kind: JobKind; request: SyncJobRequest }>(({ input }) => createJob(apiClient, input.kind, input.request)),
  },
  guards: {
    datesMissing: (_, params: { draft: SyncDraft }) => requestFromDraft(params.draft) === null,
    rangeRefused: (_, params: { draft: SyncDraft }) => draftRangeProblem(params.draft) !== null,
    needsConfirmation: ({ context }) => context.kind === 'export',
    isAccountProblem: (_, params: { error: unknown }) => describeCreateFailure(params.error, 'import').accountCode !== undefined,
  },
  actions: {
    rejectMissingDates: emit({ type: 'notice', text: DATE_RANGE_REQUIRED, kind: 'danger' }),
    clearDateProblem: assign({ dateProblem: null }),
    rejectRange: assign((_, params: { draft: SyncDraft }) => ({ dateProblem: draftRangeProblem(params.draft) })),
    assignRequest: assign((_, params: { draft: SyncDraft }) => ({ request: requestFromDraft(params.draft), dateProblem: null })),
    announceCreated: emit((_, params: { job: SyncJob }) => ({ type: 'created' as const, job: params.job })),
    reportAccountProblem: emit((_, params: { error: unknown }) => ({
      type: 'accountProblem' as const,
      code: describeCreateFailure(params.error, 'import').accountCode ?? '',
    })),
    // One toast per line, in order: a 422's message, then its first error unless it repeats the message.
    reportFailure: enqueueActions(({ context, enqueue }, params: { error: unknown }) => {
      for (const text of describeCreateFailure(params.error, context.kind).notices) {
        enqueue.emit({ type: 'notice', text, kind: 'danger' });
      }
    }),
  },
}).createMachine({
  id: 'syncForm',
  context: ({ input }) => ({ kind: input?.kind ?? 'import', request: null, dateProblem: null }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        SUBMIT: [
          { guard: { type: 'datesMissing', params: ({ event }) => ({ draft: event.draft }) }, actions: ['clearDateProblem', 'rejectMissingDates'] },
          {
            guard: { type: 'rangeRefused', params: ({ event }) => ({ draft: event.draft }) },
            actions: { type: 'rejectRange', params: ({ event }) => ({ draft: event.draft }) },
          },
          {
            guard: 'needsConfirmation',
            target: 'confirming',
            actions: { type: 'assignRequest', params: ({ event }) => ({ draft: event.draft }) },
          },
          { target: 'submitting', actions: { type: 'assignRequest', params: ({ event }) => ({ draft: event.draft }) } },
        ],
      },
    },
    confirming: {
      on: { CONFIRM: 'submitting', CANCEL: 'editing' },
    },
    submitting: {
      invoke: {
        src: 'createJob',
        input: ({ context }) => ({ kind: context.kind, request: context.request! }),
        onDone: {
          target: 'created',
          // No toast: the job's own status panel takes the form's place and follows it to the end.
          actions: { type: 'announceCreated', params: ({ event }) => ({ job: event.output }) },
        },
        onError: [
          {
            guard: { type: 'isAccountProblem', params: ({ event }) => ({ error: event.error }) },
            target: 'editing',
            actions: { type: 'reportAccountProblem', params: ({ event }) => ({ error: event.error }) },
          },
          { target: 'editing', actions: { type: 'reportFailure', params: ({ event }) => ({ error: event.error }) } },
        ],
      },
    },
    created: { type: 'final' },
  },
});

export type SyncFormSnapshot = SnapshotFrom<typeof syncFormMachine>;
export const selectIsSubmitting = (snapshot: SyncFormSnapshot) => snapshot.matches('submitting');
export const selectIsConfirming = (snapshot: SyncFormSnapshot) => snapshot.matches('confirming');
export const selectRequest = (snapshot: SyncFormSnapshot) => snapshot.context.request;
export const selectDateProblem = (snapshot: SyncFormSnapshot) => snapshot.context.dateProblem;
