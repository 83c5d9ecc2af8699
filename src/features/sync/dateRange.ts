// Date-range presets (Today, Next 7/14/30 days, this, previous and next month) and the prefill of the import and
// export forms: today to today + 7 days, or today to today + ahead_days when that direction's automatic sync is on,
// with the sync settings' filters (a practitioner gets their own practitioners); FAST mode ends on the start day.
// Dates are calendar dates in the business's time zone, written yyyy-MM-dd as the API expects.
import { Temporal } from 'temporal-polyfill';
import { toRequestDate } from '../../lib/dates';
import type { Role } from '../../api/types';
import type { SyncDraft } from '../../machines/syncForm';
import type { JobKind, SyncSettings } from './api';

export type SyncMode = 'NORMAL' | 'FAST';

export interface DateRange {
  start: string | null;
  end: string | null;
}

export const DEFAULT_RANGE_DAYS = 7;

/** The most days one import or export may cover, first and last day included (the server refuses more). */
export const MAX_RANGE_DAYS = 62;
/** Automatic sync covers today..today+ahead_days, so days ahead stay one below the longest range (the contract's maximum). */
export const MAX_AHEAD_DAYS = MAX_RANGE_DAYS - 1;
/** The dates the server accepts in a range (a practice's bookings; 0001 is a typing slip). */
export const EARLIEST_DATE = '2000-01-01';
export const LATEST_DATE = '2099-12-31';

/** Days from start to end, both included. */
export function daysInRange(start: string, end: string): number {
  return Temporal.PlainDate.from(start).until(Temporal.PlainDate.from(end), { largestUnit: 'days' }).days + 1;
}

/** Why a chosen range cannot be sent, in the user's words, or null. */
export function rangeProblem(start: string, end: string): string | null {
  if ([start, end].some((date) => date < EARLIEST_DATE || date > LATEST_DATE)) return 'Choose dates between 1 January 2000 and 31 December 2099.';
  const days = daysInRange(start, end);
  if (days < 1) return 'The end date must be on or after the start date.';
  if (days > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days: this range has ${days}.`;
  return null;
}

export const PRESETS = [
  { id: 'today', label: 'Today' },
  { id: 'next7', label: 'Next 7 days' },
  { id: 'next14', label: 'Next 14 days' },
  { id: 'next30', label: 'Next 30 days' },
  { id: 'thisMonth', label: 'This month' },
  { id: 'previousMonth', label: 'Previous month' },
  { id: 'nextMonth', label: 'Next month' },
] as const;

export type PresetId = (typeof PRESETS)[number]['id'];

function wholeMonth(firstDay: Temporal.PlainDate): DateRange {
  return { start: toRequestDate(firstDay), end: toRequestDate(firstDay.with({ day: firstDay.daysInMonth })) };
}

/** "Next N days" runs from today to today + N, like the default range of today to today + 7. */
export function presetRange(preset: PresetId, today: Temporal.PlainDate): DateRange {
  const ahead = (days: number) => ({ start: toRequestDate(today), end: toRequestDate(today.add({ days })) });
  const firstOfMonth = today.with({ day: 1 });
  switch (preset) {
    case 'today':
      return ahead(0);
    case 'next7':
      return ahead(7);
    case 'next14':
      return ahead(14);
    case 'next30':
      return ahead(30);
    case 'thisMonth':
      return wholeMonth(firstOfMonth);
    case 'previousMonth':
      return wholeMonth(firstOfMonth.subtract({ months: 1 }));
    case 'nextMonth':
      return wholeMonth(firstOfMonth.add({ months: 1 }));
  }
}

export interface PrefillInput {
  kind: JobKind;
  mode: SyncMode;
  today: Temporal.PlainDate;
  /** Null when the settings could not be loaded: the defaults apply. */
  settings: SyncSettings | null;
  role: Role | null;
  associatedPractitionerIds: readonly number[];
  /** FAST mode opened for a given day (yyyy-MM-dd). */
  date?: string;
}

/** What the form shows when a modal opens: today..today+7, or today..today+ahead_days (at most MAX_AHEAD_DAYS) with automatic sync on. */
export function prefillDraft(input: PrefillInput): SyncDraft {
  const { settings, today } = input;
  const auto = settings !== null && (input.kind === 'import' ? settings.enable_auto_import : settings.enable_auto_export);
  // Settings saved before the limit existed may ask for more days than one range can hold.
  const aheadDays = auto ? Math.min(Math.max(settings.ahead_days, 0), MAX_AHEAD_DAYS) : DEFAULT_RANGE_DAYS;
  const start = input.date ?? toRequestDate(today);
  const end = input.mode === 'FAST' ? start : toRequestDate(today.add({ days: aheadDays }));
  const filters = settings?.filters;
  const practitionerIds = input.role === 'PRACTITIONER' ? [...input.associatedPractitionerIds] : [...(filters?.practitioner_ids ?? [])];
  if (input.mode === 'FAST') {
    return { start_date: start, end_date: start, practitioner_ids: practitionerIds, appointment_type_ids: [], business_location_ids: [] };
  }
  return {
    start_date: start,
    end_date: end,
    practitioner_ids: practitionerIds,
    appointment_type_ids: [...(filters?.appointment_type_ids ?? [])],
    business_location_ids: [...(filters?.business_location_ids ?? [])],
  };
}

/** FAST mode sends one day and practitioners only: the end date is forced to the start date. */
export function draftForMode(draft: SyncDraft, mode: SyncMode): SyncDraft {
  if (mode === 'NORMAL') return draft;
  return { ...draft, end_date: draft.start_date, appointment_type_ids: [], business_location_ids: [] };
}
