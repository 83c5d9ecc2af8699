// The availability editor, shared by the client details modal and the clients' own public page: the two differ in
// where they save (`saveTo`, the client's id or the link's token) and in the mutation they provide as
// `saveAvailability` (the modal's updates the cache and toasts, the page's says thank you). Custom availability is on
// when the client has any entry; turning it off saves an empty list; enabling a day makes it all day, unticking all
// day lets slots be picked, disabling a day clears its hours; only enabled days are saved, with hours only when a day
// is not all day and has a slot.
import { assign, emit, fromPromise, not, setup, type SnapshotFrom } from 'xstate';
import { saveClientAvailability, savePublicAvailability } from '../api/availability';
import { messageOfError } from '../api/errors';
import type { components } from '../api/schema';
import { apiClient } from '../api/session';

export type AvailabilityEntry = components['schemas']['AvailabilityEntry'];
export type AvailabilitySlot = components['schemas']['AvailabilitySlot'];
export type Dow = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export const AVAILABILITY_SLOTS: readonly AvailabilitySlot[] = ['06:00-09:00', '09:00-12:00', '12:00-15:00', '15:00-18:00'];
/** Monday … Saturday, then Sunday. */
export const DAYS_IN_GRID_ORDER: readonly Dow[] = [1, 2, 3, 4, 5, 6, 0];
export const DAY_NAMES: Record<Dow, string> = {
  0: 'Sunday',
  1: 'Monday',
  2: 'Tuesday',
  3: 'Wednesday',
  4: 'Thursday',
  5: 'Friday',
  6: 'Saturday',
};

export const AVAILABILITY_UPDATED_MESSAGE = 'The availability has been updated.';
export const AVAILABILITY_ERROR_MESSAGE = 'An error has occurred';

export interface DayAvailability {
  enabled: boolean;
  allDay: boolean;
  /** Kept in the grid's slot order. */
  hours: AvailabilitySlot[];
}

/** What the grid shows. */
export interface AvailabilityForm {
  custom: boolean;
  days: Record<Dow, DayAvailability>;
}

/** Whose availability is saved: staff save a client's by its id, a client saves their own through the emailed link. */
export type AvailabilityTarget = { clientId: number } | { token: string };

export interface AvailabilityEditorContext extends AvailabilityForm {
  saveTo: AvailabilityTarget;
}

export interface AvailabilityEditorInput {
  availability: readonly AvailabilityEntry[];
  saveTo: AvailabilityTarget;
}

export type AvailabilityEditorEvent =
  | { type: 'TOGGLE_CUSTOM' }
  | { type: 'TOGGLE_DAY'; dow: Dow }
  | { type: 'TOGGLE_ALL_DAY'; dow: Dow }
  | { type: 'TOGGLE_SLOT'; dow: Dow; slot: AvailabilitySlot }
  | { type: 'SAVE' }
  /** The saved data changed elsewhere (a reload): start over from it. */
  | { type: 'LOAD'; availability: readonly AvailabilityEntry[] };

export type AvailabilityEditorEmitted =
  | { type: 'saved'; availability: AvailabilityEntry[] }
  | { type: 'failed'; message: string };

const DISABLED_DAY: DayAvailability = { enabled: false, allDay: false, hours: [] };

const sortSlots = (slots: readonly AvailabilitySlot[]) => AVAILABILITY_SLOTS.filter((slot) => slots.includes(slot));

export function contextFromAvailability(availability: readonly AvailabilityEntry[]): AvailabilityForm {
  const days = Object.fromEntries(DAYS_IN_GRID_ORDER.map((dow) => [dow, DISABLED_DAY])) as Record<Dow, DayAvailability>;
  for (const entry of availability) {
    const hours = sortSlots(entry.hours ?? []);
    days[entry.dow as Dow] = { enabled: true, allDay: hours.length === 0, hours };
  }
  return { custom: availability.length > 0, days };
}

/**
 * What is sent: nothing when custom availability is off; otherwise the enabled days (grid order),
 * with hours only when the day is not all-day and has at least one slot.
 */
export function availabilityToSend(context: AvailabilityForm): AvailabilityEntry[] {
  if (!context.custom) return [];
  return DAYS_IN_GRID_ORDER.filter((dow) => context.days[dow].enabled).map((dow) => {
    const day = context.days[dow];
    return !day.allDay && day.hours.length > 0 ? { dow, hours: [...day.hours] } : { dow };
  });
}

/**
 * What the form shows but cannot be saved as shown: a day that is neither all day nor given a slot (it would be saved
 * as all day), and custom availability with no day at all (it would be saved as no custom availability). Saving
 * waits until each is fixed; the messages sit beside the day or the switch.
 */
export interface AvailabilityProblems {
  days: Partial<Record<Dow, string>>;
  form: string | null;
}

export const NO_DAY_MESSAGE = 'Choose at least one day, or turn custom availability off.';
export const noSlotMessage = (dow: Dow) => `Choose at least one time slot for ${DAY_NAMES[dow]}, or tick All day.`;

export function availabilityProblems(context: AvailabilityForm): AvailabilityProblems {
  const problems: AvailabilityProblems = { days: {}, form: null };
  if (!context.custom) return problems;
  for (const dow of DAYS_IN_GRID_ORDER) {
    const day = context.days[dow];
    if (day.enabled && !day.allDay && day.hours.length === 0) problems.days[dow] = noSlotMessage(dow);
  }
  if (!DAYS_IN_GRID_ORDER.some((dow) => context.days[dow].enabled)) problems.form = NO_DAY_MESSAGE;
  return problems;
}

const hasAvailabilityProblems = (context: AvailabilityForm) => {
  const problems = availabilityProblems(context);
  return problems.form !== null || Object.keys(problems.days).length > 0;
};

/** Whether the form differs from `saved` as the user sees it (days kept behind a switched-off custom availability do not count). */
export function isAvailabilityChanged(context: AvailabilityForm, saved: readonly AvailabilityEntry[]): boolean {
  const initial = contextFromAvailability(saved);
  if (context.custom !== initial.custom) return true;
  if (!context.custom) return false;
  return DAYS_IN_GRID_ORDER.some((dow) => {
    const [now, before] = [context.days[dow], initial.days[dow]];
    return now.enabled !== before.enabled || (now.enabled && (now.allDay !== before.allDay || now.hours.join() !== before.hours.join()));
  });
}

const updateDay = (context: AvailabilityForm, dow: Dow, change: (day: DayAvailability) => DayAvailability) => ({
  days: { ...context.days, [dow]: change(context.days[dow]) },
});

export const availabilityEditorMachine = setup({
  types: {
    context: {} as AvailabilityEditorContext,
    events: {} as AvailabilityEditorEvent,
    input: {} as AvailabilityEditorInput,
    emitted: {} as AvailabilityEditorEmitted,
  },
  actors: {
    saveAvailability: fromPromise<unknown, { saveTo: AvailabilityTarget; availability: AvailabilityEntry[] }>(({ input }) =>
      'token' in input.saveTo
        ? savePublicAvailability(apiClient, input.saveTo.token, input.availability)
        : saveClientAvailability(apiClient, input.saveTo.clientId, input.availability),
    ),
  },
  guards: {
    isCustom: ({ context }) => context.custom,
    hasProblems: ({ context }) => hasAvailabilityProblems(context),
    isDayEnabled: ({ context }, params: { dow: Dow }) => context.custom && context.days[params.dow].enabled,
    canPickSlots: ({ context }, params: { dow: Dow }) =>
      context.custom && context.days[params.dow].enabled && !context.days[params.dow].allDay,
  },
  actions: {
    toggleCustom: assign({ custom: ({ context }) => !context.custom }),
    toggleDay: assign(({ context }, params: { dow: Dow }) =>
      updateDay(context, params.dow, (day) => (day.enabled ? DISABLED_DAY : { enabled: true, allDay: true, hours: [] })),
    ),
    toggleAllDay: assign(({ context }, params: { dow: Dow }) =>
      // Hours picked before going all-day are kept only while the day is not all-day.
      updateDay(context, params.dow, (day) => ({ ...day, allDay: !day.allDay, hours: [] })),
    ),
    toggleSlot: assign(({ context }, params: { dow: Dow; slot: AvailabilitySlot }) =>
      updateDay(context, params.dow, (day) => ({
        ...day,
        hours: day.hours.includes(params.slot)
          ? day.hours.filter((slot) => slot !== params.slot)
          : sortSlots([...day.hours, params.slot]),
      })),
    ),
    load: assign((_, params: { availability: readonly AvailabilityEntry[] }) => contextFromAvailability(params.availability)),
    emitSaved: emit((_, params: { availability: AvailabilityEntry[] }) => ({ type: 'saved' as const, availability: params.availability })),
    emitFailed: emit((_, params: { error: unknown }) => ({
      type: 'failed' as const,
      message: messageOfError(params.error, AVAILABILITY_ERROR_MESSAGE),
    })),
  },
}).createMachine({
  id: 'availabilityEditor',
  context: ({ input }) => ({ ...contextFromAvailability(input.availability), saveTo: input.saveTo }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        TOGGLE_CUSTOM: { actions: 'toggleCustom' },
        TOGGLE_DAY: {
          guard: 'isCustom',
          actions: { type: 'toggleDay', params: ({ event }) => ({ dow: event.dow }) },
        },
        TOGGLE_ALL_DAY: {
          guard: { type: 'isDayEnabled', params: ({ event }) => ({ dow: event.dow }) },
          actions: { type: 'toggleAllDay', params: ({ event }) => ({ dow: event.dow }) },
        },
        TOGGLE_SLOT: {
          guard: { type: 'canPickSlots', params: ({ event }) => ({ dow: event.dow }) },
          actions: { type: 'toggleSlot', params: ({ event }) => ({ dow: event.dow, slot: event.slot }) },
        },
        LOAD: { actions: { type: 'load', params: ({ event }) => ({ availability: event.availability }) } },
        SAVE: { guard: not('hasProblems'), target: 'saving' },
      },
    },
    saving: {
      invoke: {
        id: 'save',
        src: 'saveAvailability',
        input: ({ context }) => ({ saveTo: context.saveTo, availability: availabilityToSend(context) }),
        onDone: {
          target: 'editing',
          actions: { type: 'emitSaved', params: ({ context }) => ({ availability: availabilityToSend(context) }) },
        },
        onError: {
          target: 'editing',
          actions: { type: 'emitFailed', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});

export type AvailabilityEditorSnapshot = SnapshotFrom<typeof availabilityEditorMachine>;
export const selectIsSaving = (snapshot: AvailabilityEditorSnapshot) => snapshot.matches('saving');
