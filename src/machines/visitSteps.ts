// A visit's lifecycle on the practitioner's run sheet: not started → On my way → Arrived → Done, or Could not attend
// with a reason (from any state before Done); a coordinator may reopen a visit that has started. Done is one tap (issue
// 34): a note may be added to the done visit afterwards (saved on its own, not a step); Could not attend asks for its
// reason (and words when it is 'other'). A step is stamped with the phone's
// time and an idempotency key when it is tapped; trying again after a failed send resends the same step (same time,
// same key), so the server stores it once. The server's answer decides the state shown; when the visit's state
// changes elsewhere (the office reopens it), SYNC brings the machine to it. Without signal a step waits in the phone's
// outbox (src/lib/stepOutbox): the send answers 'queued' with the state the step leads to, and the practitioner goes on
// to the next step as if it had been recorded; the outbox sends them in order when the network is back.
import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { messageOfError } from '../api/errors';
import { apiClient } from '../api/session';
import {
  recordVisitStep, saveVisitNote, VISIT_NOTE_ERROR_MESSAGE, VISIT_STEP_ERROR_MESSAGE, type NotAttendedReason, type RecordedVisitStep, type VisitState, type VisitStepKind, type VisitStepRequest,
} from '../api/visitSteps';
import { currentPosition } from '../lib/geolocation';
import { isQueued, type StepOutcome } from '../lib/stepOutbox';

export const STEP_LABELS: Record<VisitStepKind, string> = {
  on_my_way: 'On my way', arrived: 'Arrived', done: 'Done', could_not_attend: 'Could not attend', reopened: 'Reopen',
};
export const STATE_LABELS: Record<VisitState, string> = {
  not_started: 'Not started', on_my_way: 'On my way', arrived: 'Arrived', done: 'Done', could_not_attend: 'Could not attend',
};
export const REASON_LABELS: Record<NotAttendedReason, string> = {
  client_not_home: 'Client not home', refused: 'Refused', hospital: 'In hospital', other: 'Other',
};
export const REASONS = Object.keys(REASON_LABELS) as NotAttendedReason[];
export const REASON_TEXT_NEEDED = 'Say what happened.';

export interface VisitStepsInput {
  appointmentId: number;
  /** The visit's state as the server last said. */
  state: VisitState;
  /** A coordinator (ADMIN, REGULAR_USER) may reopen; a practitioner may not. */
  canReopen: boolean;
}

/** A step as tapped: what the phone sends, and sends again unchanged on a retry. */
export type PendingStep = VisitStepRequest;

export interface VisitStepsContext {
  appointmentId: number;
  state: VisitState;
  canReopen: boolean;
  pending: PendingStep | null;
  /** Could not attend's form. */
  reason: NotAttendedReason | null;
  reasonText: string;
  /** The done visit's note, as it is being written. */
  note: string;
  error: string | null;
}

export type VisitStepsEvent =
  | { type: 'ON_MY_WAY' }
  | { type: 'ARRIVED' }
  | { type: 'DONE' }
  | { type: 'COULD_NOT_ATTEND' }
  | { type: 'REOPEN' }
  | { type: 'CHOOSE_REASON'; reason: NotAttendedReason }
  | { type: 'CHANGE_REASON_TEXT'; value: string }
  /** Opens the done visit's note, with the note it has. */
  | { type: 'ADD_NOTE'; note: string }
  | { type: 'CHANGE_NOTE'; value: string }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' }
  | { type: 'RETRY' }
  /** The server's state of the visit changed (a refetch): shown when nothing is being sent. */
  | { type: 'SYNC'; state: VisitState };

export type VisitStepsEmitted =
  | { type: 'recorded'; result: RecordedVisitStep }
  | { type: 'queued'; step: PendingStep }
  | { type: 'failed'; message: string }
  | { type: 'noteSaved'; note: string };

/** A new key for each step tapped (not for each send). */
function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
}

const stamped = (step: VisitStepKind, extra: Partial<PendingStep> = {}): PendingStep => ({
  step, at: new Date().toISOString(), idempotency_key: newIdempotencyKey(), ...extra,
});

/** The step with the phone's position when the practitioner allows it (a reopening, from the desk, carries none). */
export async function withPosition(step: PendingStep): Promise<PendingStep> {
  const position = step.step === 'reopened' ? null : await currentPosition();
  return position ? { ...step, ...position } : step;
}

/** Whether Could not attend's form can be sent: a reason, and words when it is 'other'. */
export const reasonComplete = (context: Pick<VisitStepsContext, 'reason' | 'reasonText'>) =>
  context.reason !== null && (context.reason !== 'other' || context.reasonText.trim() !== '');

export const visitStepsMachine = setup({
  types: {
    context: {} as VisitStepsContext,
    events: {} as VisitStepsEvent,
    input: {} as VisitStepsInput,
    emitted: {} as VisitStepsEmitted,
  },
  actors: {
    // The run sheet provides its mutation (which also refreshes the lists); by default the phone's position is read
    // (when allowed) and the step sent.
    sendStep: fromPromise<StepOutcome, { appointmentId: number; step: PendingStep }>(async ({ input }) =>
      recordVisitStep(apiClient, input.appointmentId, await withPosition(input.step))),
    saveNote: fromPromise<unknown, { appointmentId: number; note: string }>(({ input }) => saveVisitNote(apiClient, input.appointmentId, input.note)),
  },
  guards: {
    isNotStarted: ({ context }) => context.state === 'not_started',
    isOnMyWay: ({ context }) => context.state === 'on_my_way',
    isArrived: ({ context }) => context.state === 'arrived',
    isDone: ({ context }) => context.state === 'done',
    canReopen: ({ context }) => context.canReopen,
    isReasonComplete: ({ context }) => reasonComplete(context),
    isOtherReason: ({ context }) => context.reason === 'other',
    wasQueued: (_, params: { outcome: StepOutcome }) => isQueued(params.outcome),
  },
  actions: {
    prepare: assign((_, params: { step: VisitStepKind }) => ({ pending: stamped(params.step), error: null })),
    prepareNotAttended: assign(({ context }) => ({
      pending: stamped('could_not_attend', {
        reason: context.reason!, ...(context.reason === 'other' ? { reason_text: context.reasonText.trim() } : {}),
      }),
      error: null,
    })),
    openForm: assign({ reason: null, reasonText: '', note: '', error: null }),
    chooseReason: assign((_, params: { reason: NotAttendedReason }) => ({ reason: params.reason, error: null })),
    setReasonText: assign((_, params: { value: string }) => ({ reasonText: params.value, error: null })),
    openNote: assign((_, params: { note: string }) => ({ note: params.note, error: null })),
    setNote: assign((_, params: { value: string }) => ({ note: params.value })),
    setNoteFailure: assign({ error: (_, params: { error: unknown }) => messageOfError(params.error, VISIT_NOTE_ERROR_MESSAGE) }),
    emitNoteSaved: emit(({ context }) => ({ type: 'noteSaved' as const, note: context.note.trim() })),
    refuseReason: assign({ error: ({ context }) => (context.reason === null ? 'Choose a reason.' : REASON_TEXT_NEEDED) }),
    accept: assign((_, params: { outcome: StepOutcome }) => ({
      state: isQueued(params.outcome) ? params.outcome.state : params.outcome.appointment.visit_state, pending: null, error: null,
    })),
    setFailure: assign({ error: (_, params: { error: unknown }) => messageOfError(params.error, VISIT_STEP_ERROR_MESSAGE) }),
    drop: assign({ pending: null, error: null }),
    syncState: assign((_, params: { state: VisitState }) => ({ state: params.state })),
    emitRecorded: emit((_, params: { result: RecordedVisitStep }) => ({ type: 'recorded' as const, result: params.result })),
    emitQueued: emit(({ context }) => ({ type: 'queued' as const, step: context.pending! })),
    emitFailed: emit(({ context }) => ({ type: 'failed' as const, message: context.error ?? VISIT_STEP_ERROR_MESSAGE })),
  },
}).createMachine({
  id: 'visitSteps',
  context: ({ input }) => ({
    appointmentId: input.appointmentId, state: input.state, canReopen: input.canReopen,
    pending: null, reason: null, reasonText: '', note: '', error: null,
  }),
  initial: 'showing',
  states: {
    /** Goes to the visit's state as the server said. */
    showing: {
      always: [
        { guard: 'isNotStarted', target: 'notStarted' },
        { guard: 'isOnMyWay', target: 'onMyWay' },
        { guard: 'isArrived', target: 'arrived' },
        { guard: 'isDone', target: 'done' },
        { target: 'couldNotAttend' },
      ],
    },
    notStarted: {
      on: {
        ON_MY_WAY: { target: 'sending', actions: { type: 'prepare', params: { step: 'on_my_way' } } },
        ARRIVED: { target: 'sending', actions: { type: 'prepare', params: { step: 'arrived' } } },
        COULD_NOT_ATTEND: { target: 'choosingReason', actions: 'openForm' },
        SYNC: { target: 'showing', actions: { type: 'syncState', params: ({ event }) => ({ state: event.state }) } },
      },
    },
    onMyWay: {
      on: {
        ARRIVED: { target: 'sending', actions: { type: 'prepare', params: { step: 'arrived' } } },
        COULD_NOT_ATTEND: { target: 'choosingReason', actions: 'openForm' },
        REOPEN: { guard: 'canReopen', target: 'sending', actions: { type: 'prepare', params: { step: 'reopened' } } },
        SYNC: { target: 'showing', actions: { type: 'syncState', params: ({ event }) => ({ state: event.state }) } },
      },
    },
    arrived: {
      on: {
        DONE: { target: 'sending', actions: { type: 'prepare', params: { step: 'done' } } },
        COULD_NOT_ATTEND: { target: 'choosingReason', actions: 'openForm' },
        REOPEN: { guard: 'canReopen', target: 'sending', actions: { type: 'prepare', params: { step: 'reopened' } } },
        SYNC: { target: 'showing', actions: { type: 'syncState', params: ({ event }) => ({ state: event.state }) } },
      },
    },
    done: {
      on: {
        ADD_NOTE: { target: 'writingNote', actions: { type: 'openNote', params: ({ event }) => ({ note: event.note }) } },
        REOPEN: { guard: 'canReopen', target: 'sending', actions: { type: 'prepare', params: { step: 'reopened' } } },
        SYNC: { target: 'showing', actions: { type: 'syncState', params: ({ event }) => ({ state: event.state }) } },
      },
    },
    couldNotAttend: {
      on: {
        REOPEN: { guard: 'canReopen', target: 'sending', actions: { type: 'prepare', params: { step: 'reopened' } } },
        SYNC: { target: 'showing', actions: { type: 'syncState', params: ({ event }) => ({ state: event.state }) } },
      },
    },
    /** Could not attend: the reason (and words for 'other') before it is sent. */
    choosingReason: {
      on: {
        CHOOSE_REASON: { actions: { type: 'chooseReason', params: ({ event }) => ({ reason: event.reason }) } },
        // The words are asked for 'other' only.
        CHANGE_REASON_TEXT: { guard: 'isOtherReason', actions: { type: 'setReasonText', params: ({ event }) => ({ value: event.value }) } },
        CONFIRM: [
          { guard: 'isReasonComplete', target: 'sending', actions: 'prepareNotAttended' },
          { actions: 'refuseReason' },
        ],
        CANCEL: { target: 'showing', actions: 'drop' },
      },
    },
    /** The done visit's note, written after Done. */
    writingNote: {
      on: {
        CHANGE_NOTE: { actions: { type: 'setNote', params: ({ event }) => ({ value: event.value }) } },
        CONFIRM: { target: 'savingNote' },
        CANCEL: { target: 'showing', actions: 'drop' },
      },
    },
    /** Saved on its own (not a step): refused or without signal, the words stay in the form with why. */
    savingNote: {
      invoke: {
        id: 'saveNote',
        src: 'saveNote',
        input: ({ context }) => ({ appointmentId: context.appointmentId, note: context.note.trim() }),
        onDone: { target: 'showing', actions: ['emitNoteSaved', 'drop'] },
        onError: { target: 'writingNote', actions: { type: 'setNoteFailure', params: ({ event }) => ({ error: event.error }) } },
      },
    },
    sending: {
      invoke: {
        id: 'send',
        src: 'sendStep',
        input: ({ context }) => ({ appointmentId: context.appointmentId, step: context.pending! }),
        onDone: [
          {
            // No signal: the step waits in the outbox, and the visit shows the state it leads to.
            guard: { type: 'wasQueued', params: ({ event }) => ({ outcome: event.output }) },
            target: 'showing',
            actions: ['emitQueued', { type: 'accept', params: ({ event }) => ({ outcome: event.output }) }],
          },
          {
            target: 'showing',
            actions: [
              { type: 'accept', params: ({ event }) => ({ outcome: event.output }) },
              { type: 'emitRecorded', params: ({ event }) => ({ result: event.output as RecordedVisitStep }) },
            ],
          },
        ],
        onError: {
          target: 'failed',
          actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error }) }, 'emitFailed'],
        },
      },
    },
    /** The step was not recorded: try again (the same step, time and key), or leave it. */
    failed: {
      on: {
        RETRY: { target: 'sending' },
        CANCEL: { target: 'showing', actions: 'drop' },
        // The office changed the visit meanwhile (a refusal refetches it): the state is shown, and the refused step stays
        // in the phone's outbox as not recorded until the practitioner dismisses it.
        SYNC: { target: 'showing', actions: ['drop', { type: 'syncState', params: ({ event }) => ({ state: event.state }) }] },
      },
    },
  },
});

export type VisitStepsSnapshot = SnapshotFrom<typeof visitStepsMachine>;
