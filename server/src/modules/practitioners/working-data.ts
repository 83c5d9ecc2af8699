// The rules of a practitioner's working data, which Rounds keeps for routing (migration 0050): where the day starts
// and ends, the hours of each weekday, the break, and what makes a practitioner routable. Pure: no database; the
// settings list, the PATCH and the optimiser's day resolver (service.ts) all read these.
import type { GeoPrecision, PlaceKind, practitioners, WorkingHours } from '../../db/schema';

type PractitionerRow = typeof practitioners.$inferSelect;

/** Working hours are stored Monday first. */
export const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A business or custom location as a place: its name, address and map position (null when it has none). */
export interface PlaceSource { id: number; name: string; address: string | null; lat: number | null; lng: number | null; geo_precision: GeoPrecision }

/** The business's locations a practitioner's places may name, by id. */
export interface PlaceSources {
  businessLocations: ReadonlyMap<number, PlaceSource>;
  customLocations: ReadonlyMap<number, PlaceSource>;
}

/** The practitioner columns the working-data rules read. */
export type WorkingDataRow = Pick<PractitionerRow,
  'id' | 'first_name' | 'last_name' | 'active' | 'time_zone' | 'home_address' | 'home_lat' | 'home_lng' | 'home_geo_precision'
  | 'start_place_kind' | 'start_business_location_id' | 'start_custom_location_id'
  | 'end_place_kind' | 'end_business_location_id' | 'end_custom_location_id'
  | 'working_hours' | 'break_earliest' | 'break_latest' | 'break_minutes'
  | 'skill_appointment_type_ids' | 'pms_appointment_type_ids' | 'max_visits' | 'max_travel_minutes'>;

/**
 * A practitioner's qualifications: the appointment type ids they may be given. The PMS's list (read by every import)
 * wins: Rounds' choice (skill_appointment_type_ids, Settings → Practitioners) can only narrow it, never add a type the
 * PMS does not list. Without a PMS list, Rounds' choice alone. null when neither is known: unknown, which is never
 * read as "every type" (such a practitioner is given no visit that is not already theirs). The one rule: the
 * optimiser, moves by hand, Insert into a route, the nearby search and the day checker all read it.
 */
export function effectiveQualifications(row: Pick<PractitionerRow, 'pms_appointment_type_ids' | 'skill_appointment_type_ids'>): number[] | null {
  const pms = row.pms_appointment_type_ids;
  const narrowed = row.skill_appointment_type_ids;
  if (pms === null) return narrowed === null ? null : [...narrowed].sort((a, b) => a - b);
  const sorted = [...new Set(pms)].sort((a, b) => a - b);
  return narrowed === null ? sorted : sorted.filter((id) => narrowed.includes(id));
}

/** A start or end place as shown and routed: lat/lng null when it has no map position or no longer exists. */
export interface ResolvedPlace {
  kind: PlaceKind; id: number | null; name: string; address: string | null; lat: number | null; lng: number | null;
  /** How precise the position is ('none' without one). */
  geo_precision: GeoPrecision;
}

/** A practitioner's break on their own clock ("HH:MM"). */
export interface PractitionerBreak { earliest: string; latest: string; minutes: number }

export const fullName = (row: Pick<PractitionerRow, 'first_name' | 'last_name'>) => `${row.first_name} ${row.last_name}`.trim();

/** Minutes after midnight of "HH:MM" or "HH:MM:SS". */
export function minutesOf(clock: string): number {
  const [hours, minutes] = clock.split(':').map(Number);
  return hours * 60 + minutes;
}

/** "HH:MM" of a time column ("HH:MM:SS"); null stays null. */
export const clockOf = (time: string | null): string | null => (time === null ? null : time.slice(0, 5));

const PLACE_WORDS: Record<PlaceKind, string> = { home: 'home', business_location: 'business location', custom_location: 'custom location' };

function placeColumns(row: WorkingDataRow, which: 'start' | 'end') {
  return which === 'start'
    ? { kind: row.start_place_kind, businessLocationId: row.start_business_location_id, customLocationId: row.start_custom_location_id }
    : { kind: row.end_place_kind, businessLocationId: row.end_business_location_id, customLocationId: row.end_custom_location_id };
}

/**
 * The start or end place as chosen, resolved to a name and a map position; null when none is chosen (for the end: the
 * start place is used). A business location the PMS removed (the id was cleared) or one of another business resolves
 * to a place without a position, so it is reported rather than silently dropped.
 */
export function resolvePlace(row: WorkingDataRow, which: 'start' | 'end', sources: PlaceSources): ResolvedPlace | null {
  const { kind, businessLocationId, customLocationId } = placeColumns(row, which);
  if (kind === null) return null;
  if (kind === 'home') {
    const placed = row.home_lat !== null && row.home_lng !== null;
    return { kind, id: null, name: 'Home', address: row.home_address, lat: row.home_lat, lng: row.home_lng, geo_precision: placed ? row.home_geo_precision : 'none' };
  }
  const id = kind === 'business_location' ? businessLocationId : customLocationId;
  const source = id === null ? undefined : (kind === 'business_location' ? sources.businessLocations : sources.customLocations).get(id);
  if (!source) return { kind, id: null, name: `A removed ${PLACE_WORDS[kind]}`, address: null, lat: null, lng: null, geo_precision: 'none' };
  const placed = source.lat !== null && source.lng !== null;
  return { kind, id: source.id, name: source.name, address: source.address, lat: source.lat, lng: source.lng, geo_precision: placed ? source.geo_precision : 'none' };
}

export const hasPosition = (place: ResolvedPlace | null): place is ResolvedPlace & { lat: number; lng: number } =>
  place !== null && place.lat !== null && place.lng !== null;

export function breakOf(row: Pick<WorkingDataRow, 'break_earliest' | 'break_latest' | 'break_minutes'>): PractitionerBreak | null {
  if (row.break_earliest === null || row.break_latest === null || row.break_minutes === null) return null;
  return { earliest: clockOf(row.break_earliest)!, latest: clockOf(row.break_latest)!, minutes: row.break_minutes };
}

/**
 * When the break may start on a working day, in minutes after midnight: its window clipped to the hours so that the
 * break ends by the end of the day; null when it cannot be taken inside them.
 */
export function breakWindowOn(hours: WorkingHours, brk: PractitionerBreak): { earliest: number; latest: number } | null {
  const earliest = Math.max(minutesOf(brk.earliest), minutesOf(hours.start));
  const latest = Math.min(minutesOf(brk.latest), minutesOf(hours.end) - brk.minutes);
  return earliest <= latest ? { earliest, latest } : null;
}

/**
 * A week of working hours in one spelling ({start, end} per day, seven days): jsonb keeps object keys in its own order,
 * so stored hours are compared and shown through this.
 */
export function normaliseWorkingHours(hours: readonly (WorkingHours | null)[]): (WorkingHours | null)[] {
  return Array.from({ length: 7 }, (_, index) => {
    const day = hours[index];
    return day ? { start: day.start, end: day.end } : null;
  });
}

/** What is wrong with a week of working hours (an end not after its start), each naming its field and weekday. */
export function workingHoursProblems(hours: readonly (WorkingHours | null)[], field = 'working_hours'): string[] {
  return hours.flatMap((day, index) => (day && minutesOf(day.end) <= minutesOf(day.start)
    ? [`${field}[${index}]: on ${WEEKDAYS[index]} the end (${day.end}) must be after the start (${day.start}).`]
    : []));
}

const listed = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/**
 * In words, what stops or limits routing this practitioner (shown on the settings page and returned by a save), and
 * whether they can be routed at all: a start place with a map position, an end place with one (or none, meaning the
 * start), and at least one working day.
 */
export function routingReadiness(row: WorkingDataRow, sources: PlaceSources): { routable: boolean; warnings: string[] } {
  const warnings: string[] = [];
  let routable = true;
  const start = resolvePlace(row, 'start', sources);
  const end = resolvePlace(row, 'end', sources);
  if (!start) {
    routable = false;
    warnings.push('No start place: choose where the day starts (home, a business location or a custom location).');
  }
  for (const [label, place] of [['start', start], ['end', end]] as const) {
    if (!place || hasPosition(place)) continue;
    routable = false;
    warnings.push(place.id === null && place.kind !== 'home'
      ? `The ${label} place (${PLACE_WORDS[place.kind]}) no longer exists: choose another.`
      : `The ${label} place (${place.name}) has no map position.`);
  }
  const hours = normaliseWorkingHours(row.working_hours);
  if (!hours.some((day) => day !== null)) {
    routable = false;
    warnings.push('No working hours: the practitioner is off every day.');
  }
  const brk = breakOf(row);
  if (brk) {
    const outside = hours.flatMap((day, index) => (day && !breakWindowOn(day, brk) ? [WEEKDAYS[index]] : []));
    if (outside.length) warnings.push(`The break cannot be taken inside the working hours on ${listed(outside)}; it is left out on those days.`);
  }
  const qualifications = effectiveQualifications(row);
  if (qualifications === null) {
    warnings.push('No known qualifications: Cliniko lists no appointment types for this practitioner and none are chosen here, so no visit that is not already theirs is given to them.');
  } else if (qualifications.length === 0) {
    warnings.push('Delivers no appointment type: no visit can be given to this practitioner.');
  }
  return { routable, warnings };
}
