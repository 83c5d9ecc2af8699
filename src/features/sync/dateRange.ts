// Date-range presets (Today, Next 7/14/30 days, this, previous and next month) and the prefill of the import and
// export forms: today to today + 7 days, or today to today + ahead_days when that direction's automatic sync is on,
// with the sync settings' filters (a practitioner gets their own practitioners); FAST mode ends on the start day.
// Dates are calendar dates in the business's time zone, written yyyy-MM-dd as the API expects.
import { Temporal } from 'temporal-polyfill';
import { toRequestDate } from '../../lib/dates';
import { MAX_AHEAD_DAYS } from '../../lib/syncRange';
import type { DateRangePreset, OpenDayRange } from '../../ui/DateRangePicker';
import type { Role } from '../../api/types';
import type { SyncDraft } from '../../machines/syncForm';
import type { JobKind } from '../../api/jobs';
import type { SyncSettings } from './api';

export type SyncMode = 'NORMAL' | 'FAST';

import type { DateRange } from '../../app/syncModalStore';

export type { DateRange };

const DEFAULT_RANGE_DAYS = 7;

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

const dayOf = (date: string | null) => (date ? Temporal.PlainDate.from(date) : null);

/** The presets as the date range picker offers them. */
export const RANGE_PRESETS: readonly DateRangePreset[] = PRESETS.map(({ id, label }) => ({
  label,
  range: (today) => {
    const { start, end } = presetRange(id, today);
    return { start: Temporal.PlainDate.from(start), end: Temporal.PlainDate.from(end) };
  },
}));

/** A draft's dates as the date pickers hold them, and back. */
export function pickerRange(draft: Pick<SyncDraft, 'start_date' | 'end_date'>): OpenDayRange {
  return { start: dayOf(draft.start_date), end: dayOf(draft.end_date) };
}

export function draftDates(range: OpenDayRange): Pick<SyncDraft, 'start_date' | 'end_date'> {
  return { start_date: range.start && toRequestDate(range.start), end_date: range.end && toRequestDate(range.end) };
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
  /** The days the page behind the form shows: it opens on them (FAST mode on the first). */
  range?: DateRange;
}

/**
 * What the form shows when a modal opens: the days the page behind shows, else today..today+7, or
 * today..today+ahead_days (at most MAX_AHEAD_DAYS) with automatic sync on.
 */
export function prefillDraft(input: PrefillInput): SyncDraft {
  const { settings, today } = input;
  const auto = settings !== null && (input.kind === 'import' ? settings.enable_auto_import : settings.enable_auto_export);
  // Settings saved before the limit existed may ask for more days than one range can hold.
  const aheadDays = auto ? Math.min(Math.max(settings.ahead_days, 0), MAX_AHEAD_DAYS) : DEFAULT_RANGE_DAYS;
  const start = input.date ?? input.range?.start ?? toRequestDate(today);
  const end = input.mode === 'FAST' ? start : input.range?.end ?? toRequestDate(today.add({ days: aheadDays }));
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
