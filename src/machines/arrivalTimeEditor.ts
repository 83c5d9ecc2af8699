// The inline arrival-time editor of the appointment details modal: editable only when
// the appointment is not on a route; HH:mm (24-hour) in 5-minute steps, within the allowed window (the booked-time
// tolerance on the appointment's day, as the server checks; the server also refuses a time that would break another
// rule of home care, in words); Enter saves the time as an ISO timestamp with the practitioner's zone offset, on the
// appointment's own day.
import { assign, emit, fromPromise, setup, type SnapshotFrom } from 'xstate';
import { updateArrivalTime } from '../api/appointments';
import { messageOfError } from '../api/errors';
import { apiClient } from '../api/session';
import { formatTime, instantAtTimeOnSameDay, normaliseTimeOfDay, parseTimeOfDay, zonedFromInstant } from '../lib/dates';

export const ARRIVAL_TIME_UPDATED_MESSAGE = 'The arrival time has been successfully updated.';
export const ARRIVAL_TIME_ERROR_MESSAGE = 'An error has occurred. Could not update appointment arrival time.';
export const ARRIVAL_TIME_FORMAT_MESSAGE = 'Enter the arrival time on the 24-hour clock, e.g. 09:35, in 5-minute steps.';
export const ARRIVAL_TIME_STEP_SECONDS = 300;
const STEP_MINUTES = ARRIVAL_TIME_STEP_SECONDS / 60;

export interface ArrivalTimeEditorInput {
  appointmentId: number;
  startsAt: string;
  /** The arrival may be at most this many minutes before or after the booked start (the rule book's tolerance). */
  toleranceMinutes: number;
  arriveAt: string | null;
  routeId: number | null;
  /** The practitioner's zone: the time is shown and entered there. */
  timeZone: string;
}

export interface ArrivalTimeEditorContext {
  appointmentId: number;
  startsAt: string;
  toleranceMinutes: number;
  /** The saved arrival (ISO); the start when none was set. */
  arriveAt: string;
  timeZone: string;
  routeId: number | null;
  /** What the input holds while editing (HH:mm). */
  draft: string;
  error: string | null;
}

/** What the save actor returns: the appointment's arrival as the server now has it. */
export interface SavedArrival {
  arrive_at: string | null;
}

export type ArrivalTimeEditorEvent =
  | { type: 'EDIT' }
  | { type: 'CHANGE'; value: string }
  | { type: 'SAVE' }
  | { type: 'CANCEL' };

export type ArrivalTimeEditorEmitted =
  | { type: 'saved'; arriveAt: string }
  | { type: 'failed'; message: string };

export function isValidArrivalTime(value: string): boolean {
  const parsed = parseTimeOfDay(value);
  return parsed !== null && (parsed.minute * 60) % ARRIVAL_TIME_STEP_SECONDS === 0;
}

export const shownArrivalTime = (context: Pick<ArrivalTimeEditorContext, 'arriveAt' | 'timeZone'>) =>
  formatTime(context.arriveAt, context.timeZone);

type WindowFacts = Pick<ArrivalTimeEditorContext, 'startsAt' | 'toleranceMinutes' | 'timeZone'>;

const hhmm = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/**
 * The times (HH:mm, in 5-minute steps) the arrival may take: the booked start ± the tolerance, within the
 * appointment's day.
 */
export function arrivalWindow({ startsAt, toleranceMinutes, timeZone }: WindowFacts): { from: string; to: string } {
  const starts = zonedFromInstant(startsAt, timeZone);
  const booked = starts.hour * 60 + starts.minute;
  const from = Math.max(0, Math.ceil((booked - toleranceMinutes) / STEP_MINUTES) * STEP_MINUTES);
  const to = Math.min(24 * 60 - STEP_MINUTES, Math.floor((booked + toleranceMinutes) / STEP_MINUTES) * STEP_MINUTES);
  return { from: hhmm(from), to: hhmm(to) };
}

/** Shown under the field before anything is typed. */
export function arrivalWindowHint(facts: WindowFacts): string {
  const { from, to } = arrivalWindow(facts);
  return `Allowed: ${from} to ${to} (${facts.toleranceMinutes} minutes either side of the booked time), ${facts.timeZone} time. 24-hour clock, 5-minute steps.`;
}

/** The refusal of a time outside the window, in the words the server uses too. */
function arrivalWindowMessage(facts: WindowFacts): string {
  const { from, to } = arrivalWindow(facts);
  return `The arrival time must be between ${from} and ${to}: within ${facts.toleranceMinutes} minutes of the booked time, on the appointment's day (${facts.timeZone}).`;
}

/** The draft as HH:mm ("935" and "9:35" read as 09:35), or null when it is not a time. */
export const draftTime = (context: Pick<ArrivalTimeEditorContext, 'draft'>) => normaliseTimeOfDay(context.draft);

function isOutsideWindow(context: ArrivalTimeEditorContext): boolean {
  const time = draftTime(context);
  const { from, to } = arrivalWindow(context);
  return time !== null && (time < from || time > to);
}

export const arrivalTimeEditorMachine = setup({
  types: {
    context: {} as ArrivalTimeEditorContext,
    events: {} as ArrivalTimeEditorEvent,
    input: {} as ArrivalTimeEditorInput,
    emitted: {} as ArrivalTimeEditorEmitted,
  },
  actors: {
    // The appointment modal provides the schedule feature's useUpdateArrivalTime, which also updates the cache and says so.
    saveArrivalTime: fromPromise<SavedArrival, { appointmentId: number; arriveAt: string }>(({ input }) =>
      updateArrivalTime(apiClient, input.appointmentId, input.arriveAt).then(({ appointment }) => appointment),
    ),
  },
  guards: {
    isOnRoute: ({ context }) => context.routeId !== null,
    isDraftInvalid: ({ context }) => !isValidArrivalTime(draftTime(context) ?? ''),
    isDraftOutsideWindow: ({ context }) => isOutsideWindow(context),
    isDraftUnchanged: ({ context }) => draftTime(context) === shownArrivalTime(context),
  },
  actions: {
    startDraft: assign({ draft: ({ context }) => shownArrivalTime(context), error: null }),
    setDraft: assign((_, params: { value: string }) => ({ draft: params.value, error: null })),
    rejectDraft: assign({ error: ARRIVAL_TIME_FORMAT_MESSAGE }),
    rejectOutsideWindow: assign({ error: ({ context }) => arrivalWindowMessage(context) }),
    clearError: assign({ error: null }),
    acceptSaved: assign((_, params: { saved: SavedArrival; fallback: string }) => ({
      arriveAt: params.saved.arrive_at ?? params.fallback,
      error: null,
    })),
    setFailure: assign({ error: (_, params: { error: unknown }) => messageOfError(params.error, ARRIVAL_TIME_ERROR_MESSAGE) }),
    emitSaved: emit(({ context }) => ({ type: 'saved' as const, arriveAt: context.arriveAt })),
    emitFailed: emit(({ context }) => ({ type: 'failed' as const, message: context.error ?? ARRIVAL_TIME_ERROR_MESSAGE })),
  },
}).createMachine({
  id: 'arrivalTimeEditor',
  context: ({ input }) => ({
    appointmentId: input.appointmentId,
    startsAt: input.startsAt,
    toleranceMinutes: input.toleranceMinutes,
    arriveAt: input.arriveAt ?? input.startsAt,
    timeZone: input.timeZone,
    routeId: input.routeId,
    draft: '',
    error: null,
  }),
  initial: 'deciding',
  states: {
    deciding: {
      always: [{ guard: 'isOnRoute', target: 'locked' }, { target: 'viewing' }],
    },
    /** On an optimised route: the route owns the times. */
    locked: {},
    viewing: {
      on: { EDIT: { target: 'editing', actions: 'startDraft' } },
    },
    editing: {
      on: {
        CHANGE: { actions: { type: 'setDraft', params: ({ event }) => ({ value: event.value }) } },
        SAVE: [
          { guard: 'isDraftInvalid', actions: 'rejectDraft' },
          { guard: 'isDraftOutsideWindow', actions: 'rejectOutsideWindow' },
          { guard: 'isDraftUnchanged', target: 'viewing', actions: 'clearError' },
          { target: 'saving' },
        ],
        CANCEL: { target: 'viewing', actions: 'clearError' },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'saveArrivalTime',
        input: ({ context }) => ({
          appointmentId: context.appointmentId,
          arriveAt: instantAtTimeOnSameDay(context.startsAt, draftTime(context)!, context.timeZone),
        }),
        onDone: {
          target: 'viewing',
          actions: [
            {
              type: 'acceptSaved',
              params: ({ event, context }) => ({
                saved: event.output,
                fallback: instantAtTimeOnSameDay(context.startsAt, draftTime(context)!, context.timeZone),
              }),
            },
            'emitSaved',
          ],
        },
        onError: {
          target: 'editing',
          actions: [{ type: 'setFailure', params: ({ event }) => ({ error: event.error }) }, 'emitFailed'],
        },
      },
    },
  },
});

export type ArrivalTimeEditorSnapshot = SnapshotFrom<typeof arrivalTimeEditorMachine>;
