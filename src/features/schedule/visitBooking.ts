// A new visit's form in words and rules: when it happens (a time, or a window: morning, afternoon, from–to), who takes
// it (a chosen practitioner, or the best fit the coordinator picks), what is missing, and the requests it makes.
import type { Temporal } from 'temporal-polyfill';
import { instantAtTimeOnDay, normaliseTimeOfDay } from '../../lib/dates';
import type { BestFit, BestFitRequest, BookVisitRequest } from '../../entities/appointments/booking';

export type When = 'time' | 'morning' | 'afternoon' | 'custom';

export const WINDOWS: Record<'morning' | 'afternoon', { label: string; from: string; to: string }> = {
  morning: { label: 'Morning', from: '07:00', to: '12:00' },
  afternoon: { label: 'Afternoon', from: '12:00', to: '17:00' },
};

export const BEST_FIT = 'best';

export interface VisitDraft {
  clientId: number | null;
  typeId: number | null;
  day: Temporal.PlainDate | null;
  when: When;
  time: string;
  from: string;
  to: string;
  /** A practitioner's id, or the best fit. */
  practitioner: number | typeof BEST_FIT;
}

export const BOOKING_PROBLEMS = {
  client: 'Choose the client.',
  type: 'Choose the appointment type.',
  day: 'Choose the day.',
  time: 'Write the time as HH:mm (24-hour), e.g. 09:30.',
  window: 'Write the window as two times, the first before the second, e.g. 09:00 to 11:00.',
  shortWindow: (minutes: number) => `The window is shorter than the visit (${minutes} minutes): make it longer.`,
  fit: 'Choose one of the best fits first.',
} as const;

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
const clockOf = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
/** A time asked of the best fit may become an arrival up to this much later (the business's rounding of arrivals). */
const TIME_SLACK_MINUTES = 5;

/**
 * The window the whole visit must fit in, for the best fit: the one chosen, or for a time the visit's length from it
 * (and a few minutes more, as arrivals are rounded). Null when the times cannot be read or are not start < end.
 */
export function windowOf(draft: Pick<VisitDraft, 'when' | 'time' | 'from' | 'to'>, durationMinutes: number): { start: string; end: string } | null {
  if (draft.when === 'morning' || draft.when === 'afternoon') return { start: WINDOWS[draft.when].from, end: WINDOWS[draft.when].to };
  if (draft.when === 'custom') {
    const [start, end] = [normaliseTimeOfDay(draft.from), normaliseTimeOfDay(draft.to)];
    return start && end && start < end ? { start, end } : null;
  }
  const time = normaliseTimeOfDay(draft.time);
  if (!time) return null;
  const end = Math.min(minutesOf(time) + durationMinutes + TIME_SLACK_MINUTES, 23 * 60 + 59);
  return end > minutesOf(time) ? { start: time, end: clockOf(end) } : null;
}

/** Whether the draft books straight away (a practitioner at a time) or first needs the best fits to choose from. */
export const needsBestFit = (draft: Pick<VisitDraft, 'when' | 'practitioner'>) => draft.practitioner === BEST_FIT || draft.when !== 'time';

/** What is missing before anything can be asked, the first problem only; `durationMinutes` is the type's. */
export function draftProblem(draft: VisitDraft, durationMinutes: number): string | null {
  if (draft.clientId === null) return BOOKING_PROBLEMS.client;
  if (draft.typeId === null) return BOOKING_PROBLEMS.type;
  if (draft.day === null) return BOOKING_PROBLEMS.day;
  const window = windowOf(draft, durationMinutes);
  if (!window) return draft.when === 'time' ? BOOKING_PROBLEMS.time : BOOKING_PROBLEMS.window;
  if (draft.when !== 'time' && minutesOf(window.end) - minutesOf(window.start) < durationMinutes) return BOOKING_PROBLEMS.shortWindow(durationMinutes);
  return null;
}

export function bestFitRequestOf(draft: VisitDraft, durationMinutes: number): BestFitRequest | { problem: string } {
  const problem = draftProblem(draft, durationMinutes);
  if (problem) return { problem };
  const window = windowOf(draft, durationMinutes)!;
  return {
    client_id: draft.clientId!,
    appointment_type_id: draft.typeId!,
    date: draft.day!.toString(),
    window_start: window.start,
    window_end: window.end,
    ...(draft.practitioner === BEST_FIT ? {} : { practitioner_ids: [draft.practitioner] }),
    limit: 5,
  };
}

/** The booking: at the chosen fit's arrival with its practitioner, or at the typed time with the chosen practitioner. */
export function bookingOf(draft: VisitDraft, durationMinutes: number, fit: BestFit | null, timeZone: string, requestId: string): BookVisitRequest | { problem: string } {
  const problem = draftProblem(draft, durationMinutes);
  if (problem) return { problem };
  const base = { client_id: draft.clientId!, appointment_type_id: draft.typeId!, request_id: requestId };
  if (needsBestFit(draft)) {
    if (!fit) return { problem: BOOKING_PROBLEMS.fit };
    return { ...base, practitioner_id: fit.practitioner_id, starts_at: fit.arrive_at };
  }
  return { ...base, practitioner_id: draft.practitioner as number, starts_at: instantAtTimeOnDay(draft.day!, normaliseTimeOfDay(draft.time)!, timeZone) };
}

