// The edit dialog's form as data: a practitioner's working data as a draft the inputs change, what is wrong with a
// draft (the rules the server keeps, said before it is asked), and the changes a draft makes (only those are sent).
import type { GeocodeResult } from '../../../api/geocode';
import { pinFitsAddress } from '../../../lib/geoPrecision';
import type { PlaceChoice, PractitionerChanges, PractitionerSettings } from '../../../entities/practitioners/api';
import { clockMinutes, draftOfHours, draftProblems, hoursOfDraft, isClock, type DayDraft } from './workingHours';

/** Find's answer when it placed nothing (said under the address), and the problem with saving that address. */
export const NOT_FOUND_HINT = 'Write it as street, suburb, state and postcode: 12 Example Street, Suburb QLD 4000.';
export const NOT_FOUND = 'A home needs a place on the map: correct the address and press Find again.';

/** A place in a <select>: '' none chosen, 'home', or a location's kind and id. */
export type PlaceValue = '' | 'home' | `business_location:${number}` | `custom_location:${number}`;

export interface Point {
  lat: number;
  lng: number;
}

/** The point Find gave for an address. */
export interface Located extends GeocodeResult {
  address: string;
}

export interface PractitionerDraft {
  start: PlaceValue;
  /** '' = the same as the start. */
  end: PlaceValue;
  homeAddress: string;
  /** The saved home's map position (null when it has none). */
  homePoint: Point | null;
  /** What Find last placed an address at (its `address` says which); null until it is pressed. */
  located: Located | null;
  days: DayDraft[];
  hasBreak: boolean;
  breakEarliest: string;
  breakLatest: string;
  breakMinutes: string;
  /** [] = every appointment type. */
  skills: number[];
  maxVisits: string;
  maxTravelMinutes: string;
  timeZone: string;
  /** null = the automatic colour. */
  color: string | null;
}

/** The form's fields a problem can be shown under. */
export type FormField =
  | 'start' | 'end' | 'home' | 'hours' | `day${number}` | 'break' | 'skills' | 'max_visits' | 'max_travel_minutes' | 'time_zone' | 'color';

export function placeValueOf(place: PractitionerSettings['start_place']): PlaceValue {
  if (!place) return '';
  if (place.kind === 'home') return 'home';
  return place.id === null ? '' : `${place.kind}:${place.id}`;
}

export function placeChoiceOf(value: PlaceValue): PlaceChoice | null {
  if (value === '') return null;
  if (value === 'home') return { kind: 'home' };
  const [kind, id] = value.split(':') as [PlaceChoice['kind'], string];
  return { kind, id: Number(id) };
}

export function draftOf(practitioner: PractitionerSettings): PractitionerDraft {
  const brk = practitioner.break;
  return {
    start: placeValueOf(practitioner.start_place),
    end: placeValueOf(practitioner.end_place),
    homeAddress: practitioner.home?.address ?? '',
    homePoint: practitioner.home && practitioner.home.lat !== null && practitioner.home.lng !== null ? { lat: practitioner.home.lat, lng: practitioner.home.lng } : null,
    located: null,
    days: draftOfHours(practitioner.working_hours),
    hasBreak: brk !== null,
    breakEarliest: brk?.earliest ?? '12:00',
    breakLatest: brk?.latest ?? '13:30',
    breakMinutes: String(brk?.minutes ?? 30),
    skills: practitioner.skill_appointment_type_ids ?? [],
    maxVisits: practitioner.max_visits === null ? '' : String(practitioner.max_visits),
    maxTravelMinutes: practitioner.max_travel_minutes === null ? '' : String(practitioner.max_travel_minutes),
    timeZone: practitioner.time_zone,
    color: practitioner.color_chosen ? (practitioner.color ?? null) : null,
  };
}

const LIMITS = {
  max_visits: { max: 100, words: 'Max visits: a whole number from 1 to 100, or empty for no limit.' },
  max_travel_minutes: { max: 1440, words: 'Max travel: a whole number of minutes from 1 to 1440, or empty for no limit.' },
} as const;

function limitOf(text: string): number | null | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/**
 * Where the home address as typed is on the map: Find's answer for it (null: nothing found), else the saved position
 * while the address is the saved one, else undefined (Find has not been pressed for it).
 */
export function homePointOf(draft: PractitionerDraft): Point | null | undefined {
  const address = draft.homeAddress.trim();
  const { located } = draft;
  if (located && pinFitsAddress(located.address, address)) return located.lat !== null && located.lng !== null ? { lat: located.lat, lng: located.lng } : null;
  return undefined;
}

function effectiveHomePoint(draft: PractitionerDraft, saved: PractitionerDraft): Point | null | undefined {
  const found = homePointOf(draft);
  if (found !== undefined) return found;
  return pinFitsAddress(saved.homeAddress, draft.homeAddress) ? saved.homePoint : undefined;
}

/** What is wrong with the draft, by field, in words. `saved` is the draft the dialog opened with. */
export function draftProblemsOf(draft: PractitionerDraft, saved: PractitionerDraft): Map<FormField, string> {
  const problems = new Map<FormField, string>();
  const address = draft.homeAddress.trim();
  const atHome = draft.start === 'home' || draft.end === 'home';
  const point = effectiveHomePoint(draft, saved);
  if (address === '') {
    if (atHome) problems.set('home', 'Enter the home address and press Find: the day starts or ends at home.');
  } else if (point === undefined) {
    problems.set('home', 'Press Find to place this address on the map before saving.');
  } else if (point === null && homePointOf(draft) === null) {
    problems.set('home', NOT_FOUND);
  } else if (point === null && atHome) {
    problems.set('home', 'This address is not on the map yet: press Find.');
  }
  for (const [index, problem] of draftProblems(draft.days)) problems.set(`day${index}`, problem);
  if (draft.hasBreak) {
    const minutes = Number(draft.breakMinutes);
    if (!isClock(draft.breakEarliest) || !isClock(draft.breakLatest)) problems.set('break', 'Enter when the break may start: the earliest and the latest time.');
    else if (clockMinutes(draft.breakLatest) < clockMinutes(draft.breakEarliest)) problems.set('break', 'The latest start of the break must not be before the earliest.');
    else if (!/^\d+$/.test(draft.breakMinutes.trim()) || minutes < 1 || minutes > 240) problems.set('break', 'The break lasts a whole number of minutes from 1 to 240.');
  }
  for (const [field, { max, words }] of Object.entries(LIMITS) as [keyof typeof LIMITS, (typeof LIMITS)[keyof typeof LIMITS]][]) {
    const value = limitOf(field === 'max_visits' ? draft.maxVisits : draft.maxTravelMinutes);
    if (value === undefined || (value !== null && (value < 1 || value > max))) problems.set(field, words);
  }
  if (draft.timeZone.trim() === '') problems.set('time_zone', 'Choose the time zone the hours are in.');
  return problems;
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function breakOfDraft(draft: PractitionerDraft): PractitionerChanges['break'] {
  return draft.hasBreak ? { earliest: draft.breakEarliest, latest: draft.breakLatest, minutes: Number(draft.breakMinutes) } : null;
}

/** What the draft changes from `saved` (a valid draft: see draftProblemsOf), as the PATCH's body; {} when nothing. */
export function changesOf(draft: PractitionerDraft, saved: PractitionerDraft): PractitionerChanges {
  const changes: PractitionerChanges = {};
  const address = draft.homeAddress.trim();
  const point = effectiveHomePoint(draft, saved);
  if (address === '') {
    if (saved.homeAddress.trim() !== '' || saved.homePoint) changes.home = null;
  } else if (point && (address !== saved.homeAddress.trim() || !sameJson(point, saved.homePoint))) {
    // A point from Find says how precise it is and where it came from.
    const { located } = draft;
    const how = located && located.precision !== 'none' && located.source ? { precision: located.precision, source: located.source } : {};
    changes.home = { address, lat: point.lat, lng: point.lng, ...how };
  }
  if (draft.start !== saved.start) changes.start_place = placeChoiceOf(draft.start);
  if (draft.end !== saved.end) changes.end_place = placeChoiceOf(draft.end);
  const hours = hoursOfDraft(draft.days);
  if (!sameJson(hours, hoursOfDraft(saved.days))) changes.working_hours = hours;
  if (!sameJson(breakOfDraft(draft), breakOfDraft(saved))) changes.break = breakOfDraft(draft);
  const skills = [...draft.skills].sort((a, b) => a - b);
  if (!sameJson(skills, [...saved.skills].sort((a, b) => a - b))) changes.skill_appointment_type_ids = skills.length ? skills : null;
  if (limitOf(draft.maxVisits) !== limitOf(saved.maxVisits)) changes.max_visits = limitOf(draft.maxVisits) ?? null;
  if (limitOf(draft.maxTravelMinutes) !== limitOf(saved.maxTravelMinutes)) changes.max_travel_minutes = limitOf(draft.maxTravelMinutes) ?? null;
  if (draft.timeZone !== saved.timeZone) changes.time_zone = draft.timeZone;
  if (draft.color?.toLowerCase() !== saved.color?.toLowerCase()) changes.color = draft.color?.toLowerCase() ?? null;
  return changes;
}

/** The draft by form field: a field's problem is shown until its value changes. */
export function draftValues(draft: PractitionerDraft): Partial<Record<FormField, unknown>> {
  return {
    start: draft.start, end: draft.end, home: draft.homeAddress, hours: draft.days, break: [draft.hasBreak, draft.breakEarliest, draft.breakLatest, draft.breakMinutes],
    skills: draft.skills, max_visits: draft.maxVisits, max_travel_minutes: draft.maxTravelMinutes, time_zone: draft.timeZone, color: draft.color,
    ...Object.fromEntries(draft.days.map((day, index) => [`day${index}`, day])),
  };
}

/** The form field a 422's line is about (its path as the server spells it), or null when the form shows no such field. */
export function formFieldOf(path: string): FormField | null {
  const day = /^working_hours\[(\d)\]/.exec(path);
  if (day) return `day${Number(day[1])}`;
  const [head] = path.split(/[.[]/);
  const fields: Record<string, FormField> = {
    start_place: 'start', end_place: 'end', home: 'home', working_hours: 'hours', break: 'break',
    skill_appointment_type_ids: 'skills', max_visits: 'max_visits', max_travel_minutes: 'max_travel_minutes', time_zone: 'time_zone', color: 'color',
  };
  return fields[head] ?? null;
}
