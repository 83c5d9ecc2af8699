// Practitioners: the list the pickers, lanes and map need (a practitioner sees only their own); for an admin, the
// working data Rounds keeps for routing (places, hours, break, skills, limits, time zone, colour), changed one
// practitioner at a time or, for hours, several at once, each change in the change log; and the optimiser's view of
// one practitioner's day (resolvePractitionerDay, loadPractitionerDays).
import { Temporal } from 'temporal-polyfill';
import { practitionerScope, type AuthContext } from '../../auth/access';
import type { Place, PlaceKind, WorkingHours } from '../../db/schema';
import type { BodyOf, Schemas } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { invalid, notFound } from '../../http/errors';
import { canonicalTimeZone } from '../../lib/time-zone';
import type { DbOrTx } from '../../db/client';
import { listAppointmentTypes } from '../appointment-types';
import { changesBetween, recordVersions } from '../audit';
import { findBusinessLocation } from '../business-locations';
import { findCustomLocation } from '../custom-locations';
import { leaveOverlapping } from '../leave';
import { toPractitionerDto, toPractitionerSettingsDto } from './dto';
import {
  listPractitionerRows, listPractitioners, listUpcomingRoutedVisits, lockPractitioners, placeSourcesOf, updatePractitionerWorkingData,
  type PractitionerRow, type PractitionerWorkingDataChanges,
} from './repository';
import {
  breakOf, breakWindowOn, effectiveQualifications, fullName, hasPosition, minutesOf, normaliseWorkingHours, resolvePlace, WEEKDAYS, workingHoursProblems,
  type PlaceSources, type ResolvedPlace, type WorkingDataRow,
} from './working-data';
import { longDate } from '../../lib/long-date';

export type PractitionerUpdate = BodyOf<'updatePractitioner'>;

// ---- The optimiser's view of a practitioner's day ----

/** A break as the optimiser takes it: it starts between earliestStart and latestStart (seconds, see PractitionerDay). */
export interface RoutingBreak { earliestStart: number; latestStart: number; duration: number }

/**
 * One practitioner's routing data for one day. Every time is in seconds after `dayStart`, the instant the day begins
 * (midnight) in the practitioner's time zone, counted in elapsed seconds (so a daylight-saving day is right); add
 * `(dayStart - yourReference) / 1000` to put practitioners of different zones on one clock.
 */
export interface PractitionerDay {
  practitionerId: number;
  name: string;
  active: boolean;
  timeZone: string;
  /** yyyy-MM-dd, the day asked for. */
  date: string;
  dayStart: Date;
  /** The day's working hours, cut by part-day leave (what a route keeps to); null when the practitioner does not work that weekday. */
  shift: { start: number; end: number } | null;
  /** The day's working hours as their week gives them, leave aside (the rule book's "outside working hours"). */
  hours: { start: number; end: number } | null;
  /** The start place with its position (the shape routes.start_place stores); null when none usable. */
  startPlace: Place | null;
  /** The end place; the start place when none is chosen; null when none usable. */
  endPlace: Place | null;
  /** null when there is none, or when it cannot be taken inside that day's hours (then `notes` says so). */
  break: RoutingBreak | null;
  /** Appointment type ids the practitioner delivers (effectiveQualifications); null = unknown, never "every type". */
  skills: number[] | null;
  maxVisits: number | null;
  maxTravelSeconds: number | null;
  /** Why the practitioner cannot be routed that day, in words; empty when `routable`. */
  problems: string[];
  routable: boolean;
  /** What was adjusted without stopping routing (a break left out, hours cut by leave), in words. */
  notes: string[];
  /**
   * When leave covers all of the day's working hours: that leave's reason (null when none was given). The day is
   * then not routable (`problems` says so); part-day leave instead cuts `shift` (see `notes`).
   */
  onLeave: { reason: string | null } | null;
}

/** A practitioner's leave as their day reads it. */
export interface DayLeave { startsAt: Date; endsAt: Date; reason: string | null }

const routingPlace = (place: ResolvedPlace & { lat: number; lng: number }): Place =>
  ({ kind: place.kind, id: place.id, name: place.name, lat: place.lat, lng: place.lng, ...(place.geo_precision === 'none' ? {} : { geo_precision: place.geo_precision }) });

const clockAt = (minutes: number) => Temporal.PlainTime.from({ hour: Math.floor(minutes / 60), minute: minutes % 60 });

/** Temporal.PlainDate.from(date, { overflow: 'reject' }), parsed once per date (a RangeError is not kept). */
const plainDates = new Map<string, { day: Temporal.PlainDate; text: string }>();
function plainDateOf(date: string): { day: Temporal.PlainDate; text: string } {
  let parsed = plainDates.get(date);
  if (!parsed) {
    const day = Temporal.PlainDate.from(date, { overflow: 'reject' });
    parsed = { day, text: day.toString() };
    if (plainDates.size >= 5000) plainDates.clear();
    plainDates.set(date, parsed);
  }
  return parsed;
}

/**
 * A day's start and the seconds from it to a wall-clock time, in a time zone: the same for every practitioner in
 * that zone, so worked out once per zone and day (Temporal's zone arithmetic is the slow part of a practitioner's day).
 */
interface DayClock { dayStartMs: number; secondsAt: (minutes: number) => number }
const dayClocks = new Map<string, DayClock>();

function dayClockOf(day: Temporal.PlainDate, text: string, timeZone: string): DayClock {
  const key = `${timeZone}|${text}`;
  let clock = dayClocks.get(key);
  if (!clock) {
    const dayStartMs = day.toZonedDateTime({ timeZone }).epochMilliseconds;
    const seconds = new Map<number, number>();
    clock = {
      dayStartMs,
      secondsAt: (minutes) => {
        let value = seconds.get(minutes);
        if (value === undefined) {
          value = (day.toZonedDateTime({ timeZone, plainTime: clockAt(minutes) }).epochMilliseconds - dayStartMs) / 1000;
          seconds.set(minutes, value);
        }
        return value;
      },
    };
    if (dayClocks.size >= 5000) dayClocks.clear();
    dayClocks.set(key, clock);
  }
  return clock;
}

/** A day's working hours in seconds after its start (see PractitionerDay.shift). */
function shiftOf(hours: { start: string; end: string } | null, secondsAt: DayClock['secondsAt']): PractitionerDay['shift'] {
  return hours ? { start: secondsAt(minutesOf(hours.start)), end: secondsAt(minutesOf(hours.end)) } : null;
}

function placeProblem(label: 'start' | 'end', place: ResolvedPlace): string {
  return place.id === null && place.kind !== 'home'
    ? `The ${label} place no longer exists.`
    : `The ${label} place (${place.name}) has no map position.`;
}

/**
 * Resolves a practitioner's routing data for `date` (yyyy-MM-dd): the shift from that weekday's working hours in the
 * practitioner's time zone, the start and end places with their positions, the break clipped to the shift, skills and
 * limits. Pure: `places` are the business's locations (placeSourcesOf). Throws RangeError for a date that is not
 * yyyy-MM-dd.
 */
export function resolvePractitionerDay(practitioner: WorkingDataRow, date: string, places: PlaceSources, leave: readonly DayLeave[] = []): PractitionerDay {
  return practitionerDayOn(practitionerBasis(practitioner, places), date, leave);
}


/**
 * The working hours left by leave on the day (seconds after its start): the longest stretch of the shift outside
 * every leave (the earlier one of two as long), or null when leave covers all of it. Cutting to one stretch keeps a
 * day one shift; a practitioner away in the middle of the day works the longer side of it.
 */
export function shiftOutsideLeave(shift: { start: number; end: number }, leave: readonly { start: number; end: number }[]): { start: number; end: number } | null {
  let free = [shift];
  for (const away of leave) {
    free = free.flatMap((part) => [
      ...(away.start > part.start ? [{ start: part.start, end: Math.min(part.end, away.start) }] : []),
      ...(away.end < part.end ? [{ start: Math.max(part.start, away.end), end: part.end }] : []),
    ]).filter((part) => part.end > part.start);
  }
  return free.reduce<{ start: number; end: number } | null>((best, part) => (!best || part.end - part.start > best.end - best.start ? part : best), null);
}

/** What a practitioner's days share (everything but the date's shift and break): worked out once for many dates. */
interface PractitionerBasis {
  practitioner: WorkingDataRow; name: string; timeZone: string; timeZoneProblems: string[]; placeProblems: string[];
  hours: ReturnType<typeof normaliseWorkingHours>; startPlace: Place | null; endPlace: Place | null; brk: ReturnType<typeof breakOf>;
}

function practitionerBasis(practitioner: WorkingDataRow, places: PlaceSources): PractitionerBasis {
  const timeZoneProblems: string[] = [];
  const canonical = canonicalTimeZone(practitioner.time_zone);
  if (!canonical) timeZoneProblems.push(`The time zone "${practitioner.time_zone}" is not an IANA time zone.`);
  const placeProblems: string[] = [];
  const start = resolvePlace(practitioner, 'start', places);
  const end = resolvePlace(practitioner, 'end', places) ?? start;
  let startPlace: Place | null = null;
  let endPlace: Place | null = null;
  if (!start) placeProblems.push('No start place.');
  else if (hasPosition(start)) startPlace = routingPlace(start);
  else placeProblems.push(placeProblem('start', start));
  if (end && end !== start) {
    if (hasPosition(end)) endPlace = routingPlace(end);
    else placeProblems.push(placeProblem('end', end));
  } else {
    endPlace = startPlace;
  }
  return {
    practitioner, name: fullName(practitioner), timeZone: canonical ?? 'UTC', timeZoneProblems, placeProblems,
    hours: normaliseWorkingHours(practitioner.working_hours), startPlace, endPlace, brk: breakOf(practitioner),
  };
}

function practitionerDayOn(basis: PractitionerBasis, date: string, leave: readonly DayLeave[] = []): PractitionerDay {
  const { practitioner, timeZone } = basis;
  const { day, text } = plainDateOf(date);
  const notes: string[] = [];
  const { dayStartMs, secondsAt } = dayClockOf(day, text, timeZone);

  const weekday = WEEKDAYS[day.dayOfWeek - 1];
  const hours = basis.hours[day.dayOfWeek - 1];
  const worked = shiftOf(hours, secondsAt);
  const problems = [...basis.timeZoneProblems, ...(worked ? [] : [`Does not work on ${weekday}s.`]), ...basis.placeProblems];

  let routingBreak: RoutingBreak | null = null;
  const brk = basis.brk;
  if (brk && hours) {
    const window = breakWindowOn(hours, brk);
    if (window) routingBreak = { earliestStart: secondsAt(window.earliest), latestStart: secondsAt(window.latest), duration: brk.minutes * 60 };
    else notes.push(`The break cannot be taken inside the working hours on ${weekday}; it is left out.`);
  }

  // Leave during the working hours: all of them, and the day is not routable; part of them, and the hours are cut.
  let shift = worked;
  let onLeave: PractitionerDay['onLeave'] = null;
  const during = worked ? leave.map((away) => ({ ...away, start: (away.startsAt.getTime() - dayStartMs) / 1000, end: (away.endsAt.getTime() - dayStartMs) / 1000 }))
    .filter((away) => away.start < worked.end && away.end > worked.start) : [];
  if (worked && during.length) {
    const left = shiftOutsideLeave(worked, during);
    if (!left) {
      const reason = during.find((away) => away.reason)?.reason ?? null;
      onLeave = { reason };
      problems.push(`On leave on ${longDate(day)}${reason ? ` (${reason})` : ''}.`);
    } else {
      const clock = (seconds: number) => Temporal.Instant.fromEpochMilliseconds(dayStartMs + seconds * 1000).toZonedDateTimeISO(timeZone)
        .toPlainTime().toString({ smallestUnit: 'minute' });
      notes.push(`On leave ${during.map((away) => `${clock(Math.max(away.start, worked.start))}–${clock(Math.min(away.end, worked.end))}`).join(', ')}: `
        + `the working hours are cut to ${clock(left.start)}–${clock(left.end)}.`);
      shift = left;
      if (routingBreak) {
        const earliestStart = Math.max(routingBreak.earliestStart, left.start);
        const latestStart = Math.min(routingBreak.latestStart, left.end - routingBreak.duration);
        if (earliestStart <= latestStart) routingBreak = { ...routingBreak, earliestStart, latestStart };
        else {
          routingBreak = null;
          notes.push('The break does not fit in the hours left by the leave; it is left out.');
        }
      }
    }
  }

  return {
    practitionerId: practitioner.id,
    name: basis.name,
    active: practitioner.active,
    timeZone,
    date: text,
    dayStart: new Date(dayStartMs),
    shift,
    hours: worked,
    startPlace: basis.startPlace,
    endPlace: basis.endPlace,
    break: routingBreak,
    skills: effectiveQualifications(practitioner),
    maxVisits: practitioner.max_visits,
    maxTravelSeconds: practitioner.max_travel_minutes === null ? null : practitioner.max_travel_minutes * 60,
    problems,
    routable: problems.length === 0,
    notes,
    onLeave,
  };
}

/** The leave of `practitionerIds` that may touch `dates` in any time zone, by practitioner. */
async function leaveByPractitioner(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[] | null, dates: readonly string[],
): Promise<Map<number, DayLeave[]>> {
  const byPractitioner = new Map<number, DayLeave[]>();
  if (dates.length === 0) return byPractitioner;
  const sorted = [...dates].sort();
  // A day in any zone lies within a day and a half either side of its UTC midnight.
  const from = new Date(Date.parse(`${sorted[0]}T00:00:00Z`) - 36 * 3600_000);
  const to = new Date(Date.parse(`${sorted.at(-1)}T00:00:00Z`) + 60 * 3600_000);
  for (const row of await leaveOverlapping(db, businessAccountId, practitionerIds, from, to)) {
    const own = byPractitioner.get(row.practitioner_id) ?? [];
    own.push({ startsAt: row.starts_at, endsAt: row.ends_at, reason: row.reason });
    byPractitioner.set(row.practitioner_id, own);
  }
  return byPractitioner;
}

/**
 * resolvePractitionerDay for several of the business's practitioners, read from the database, in the order of
 * `practitionerIds`; ids that are not the business's practitioners are left out.
 */
export async function loadPractitionerDays(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[], date: string,
): Promise<PractitionerDay[]> {
  const [rows, places, leave] = await Promise.all([
    listPractitioners(db, businessAccountId, [...practitionerIds]), placeSourcesOf(db, businessAccountId),
    leaveByPractitioner(db, businessAccountId, practitionerIds, [date]),
  ]);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return practitionerIds.flatMap((id) => {
    const row = byId.get(id);
    return row ? [resolvePractitionerDay(row, date, places, leave.get(id))] : [];
  });
}

/**
 * resolvePractitionerDay of the business's practitioners (those of `practitionerIds`, or all when null; inactive
 * ones too) on each of `dates`, read with one query for the practitioners and one each for the places: per
 * practitioner, by name, their colour and their days in the order of `dates`.
 */
export async function loadPractitionerDaysOn(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[] | null, dates: readonly string[],
): Promise<{ color: string; days: PractitionerDay[] }[]> {
  const [rows, places, leave] = await Promise.all([
    listPractitioners(db, businessAccountId, practitionerIds ? [...practitionerIds] : null), placeSourcesOf(db, businessAccountId),
    leaveByPractitioner(db, businessAccountId, practitionerIds, dates),
  ]);
  return rows.map((row) => {
    const basis = practitionerBasis(row, places);
    return { color: row.shown_color, days: dates.map((date) => practitionerDayOn(basis, date, leave.get(row.id))) };
  });
}

/**
 * Each of the business's practitioners (inactive ones too), by name, with the start place resolvePractitionerDay
 * gives them — the same on every day (a place is not per day) — without resolving a day.
 */
export async function loadStartPlaces(
  db: DbOrTx, businessAccountId: number,
): Promise<{ practitionerId: number; name: string; active: boolean; startPlace: Place | null }[]> {
  const [rows, places] = await Promise.all([listPractitionerRows(db, businessAccountId), placeSourcesOf(db, businessAccountId)]);
  return rows.map((row) => {
    const basis = practitionerBasis(row, places);
    return { practitionerId: row.id, name: basis.name, active: row.active, startPlace: basis.startPlace };
  });
}

/**
 * What utilisation divides by, without the rest of each day (places, break): each of the business's practitioners
 * (those of `practitionerIds`, or all when null; inactive ones too), by name, with the seconds of their working hours
 * over `dates` — the sum of each day's shift as resolvePractitionerDay has it (workingSecondsOf of those days).
 */
export async function loadWorkingTime(
  db: DbOrTx, businessAccountId: number, practitionerIds: readonly number[] | null, dates: readonly string[],
): Promise<{ practitionerId: number; name: string; active: boolean; workingSeconds: number }[]> {
  const rows = await listPractitionerRows(db, businessAccountId, practitionerIds ? [...practitionerIds] : null);
  const days = dates.map(plainDateOf);
  // Practitioners with the same time zone and week work the same seconds: each such week is added up once.
  const secondsOfWeek = new Map<string, number>();
  return rows.map((row) => {
    const timeZone = canonicalTimeZone(row.time_zone) ?? 'UTC';
    const week = normaliseWorkingHours(row.working_hours);
    const key = `${timeZone} ${JSON.stringify(week)}`;
    let workingSeconds = secondsOfWeek.get(key);
    if (workingSeconds === undefined) {
      workingSeconds = 0;
      for (const { day, text } of days) {
        const shift = shiftOf(week[day.dayOfWeek - 1], dayClockOf(day, text, timeZone).secondsAt);
        if (shift) workingSeconds += shift.end - shift.start;
      }
      secondsOfWeek.set(key, workingSeconds);
    }
    return { practitionerId: row.id, name: fullName(row), active: row.active, workingSeconds };
  });
}

// ---- What an admin changes ----

/** A practitioner's working data as the API and the change log show it (places with the name they had). */
function workingDataView(row: PractitionerRow, places: PlaceSources): Record<string, unknown> {
  const place = (which: 'start' | 'end') => {
    const resolved = resolvePlace(row, which, places);
    return resolved && { kind: resolved.kind, id: resolved.id, name: resolved.name };
  };
  const hasHome = row.home_address !== null || row.home_lat !== null || row.home_lng !== null;
  return {
    color: row.color,
    start_place: place('start'),
    end_place: place('end'),
    home: hasHome ? { address: row.home_address, lat: row.home_lat, lng: row.home_lng } : null,
    working_hours: normaliseWorkingHours(row.working_hours),
    break: breakOf(row),
    skill_appointment_type_ids: row.skill_appointment_type_ids,
    max_visits: row.max_visits,
    max_travel_minutes: row.max_travel_minutes,
    time_zone: row.time_zone,
  };
}

const KIND_WORDS: Record<Exclude<PlaceKind, 'home'>, string> = { business_location: 'business location', custom_location: 'custom location' };

/** Problems the request shows on its own, before any record is read; each names its field. */
function requestProblems(input: PractitionerUpdate): string[] {
  const problems: string[] = [];
  for (const field of ['start_place', 'end_place'] as const) {
    const choice = input[field];
    if (!choice) continue;
    if (choice.kind !== 'home' && (choice.id === undefined || choice.id === null)) {
      problems.push(`${field}.id is required when ${field}.kind is ${choice.kind}: say which ${KIND_WORDS[choice.kind]}.`);
    }
    if (choice.kind === 'home' && choice.id !== undefined && choice.id !== null) problems.push(`${field}.id must be left out when ${field}.kind is home.`);
  }
  if (input.home && !input.home.address.trim()) problems.push('home.address must not be blank.');
  if (input.working_hours) problems.push(...workingHoursProblems(input.working_hours));
  if (input.break && minutesOf(input.break.latest) < minutesOf(input.break.earliest)) {
    problems.push(`break.latest (${input.break.latest}) must not be before break.earliest (${input.break.earliest}).`);
  }
  if (input.time_zone !== undefined && !canonicalTimeZone(input.time_zone)) {
    problems.push(`time_zone: "${input.time_zone}" is not an IANA time zone name such as Australia/Brisbane.`);
  }
  return problems;
}

export class PractitionersService {
  constructor(private readonly ctx: AppContext) {}

  async list(auth: AuthContext): Promise<Schemas['Practitioner'][]> {
    const rows = await listPractitioners(this.ctx.db, auth.businessAccountId, practitionerScope(auth));
    return rows.map(toPractitionerDto);
  }

  /** Every practitioner of the business (or the active or inactive ones) with their working data, for the settings page. */
  async listSettings(auth: AuthContext, active?: boolean, ids: number[] | null = null): Promise<Schemas['PractitionerSettings'][]> {
    const [rows, places] = await Promise.all([
      listPractitioners(this.ctx.db, auth.businessAccountId, ids, active), placeSourcesOf(this.ctx.db, auth.businessAccountId),
    ]);
    return rows.map((row) => toPractitionerSettingsDto(row, places));
  }

  /** The optimiser's view of several practitioners' day (see loadPractitionerDays). */
  routingDays(businessAccountId: number, practitionerIds: readonly number[], date: string): Promise<PractitionerDay[]> {
    return loadPractitionerDays(this.ctx.db, businessAccountId, practitionerIds, date);
  }

  /** Changes a practitioner's working data (fields left out keep their value), recording the change in its change log. */
  async update(auth: AuthContext, id: number, input: PractitionerUpdate): Promise<Schemas['PractitionerSettings']> {
    const early = requestProblems(input);
    if (early.length) throw invalid(early[0], early);
    const { businessAccountId } = auth;
    await this.ctx.db.transaction(async (tx) => {
      const [before] = await lockPractitioners(tx, businessAccountId, [id]);
      if (!before) throw notFound('Practitioner');
      const problems: string[] = [];
      const changes: PractitionerWorkingDataChanges = {};

      for (const which of ['start', 'end'] as const) {
        const field = `${which}_place` as const;
        if (input[field] === undefined) continue;
        const choice = input[field];
        let businessLocationId: number | null = null;
        let customLocationId: number | null = null;
        if (choice?.kind === 'business_location') {
          // Key-share locks keep the location until this transaction commits (as its foreign key will).
          if (!await findBusinessLocation(tx, businessAccountId, choice.id!, 'key share')) {
            problems.push(`${field}.id: there is no business location ${choice.id} in this business.`);
          }
          businessLocationId = choice.id!;
        } else if (choice?.kind === 'custom_location') {
          if (!await findCustomLocation(tx, businessAccountId, choice.id!, 'key share')) {
            problems.push(`${field}.id: there is no custom location ${choice.id} in this business.`);
          }
          customLocationId = choice.id!;
        }
        Object.assign(changes, which === 'start'
          ? { start_place_kind: choice?.kind ?? null, start_business_location_id: businessLocationId, start_custom_location_id: customLocationId }
          : { end_place_kind: choice?.kind ?? null, end_business_location_id: businessLocationId, end_custom_location_id: customLocationId });
      }
      if (input.home !== undefined) {
        // The point's precision and source go with it (a pin placed by hand unless the geocoder's answer is sent).
        Object.assign(changes, input.home
          ? {
            home_address: input.home.address.trim(), home_lat: input.home.lat, home_lng: input.home.lng,
            home_geo_precision: input.home.precision ?? 'address', home_geo_source: input.home.source ?? 'manual',
          }
          : { home_address: null, home_lat: null, home_lng: null, home_geo_precision: 'none' as const, home_geo_source: null });
      }
      if (input.skill_appointment_type_ids !== undefined) {
        const wanted = input.skill_appointment_type_ids && [...new Set(input.skill_appointment_type_ids)].sort((a, b) => a - b);
        if (wanted?.length) {
          const known = new Set((await listAppointmentTypes(tx, businessAccountId)).map((type) => type.id));
          const unknown = wanted.filter((typeId) => !known.has(typeId));
          if (unknown.length) {
            problems.push(`skill_appointment_type_ids: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not an appointment type' : 'are not appointment types'} of this business.`);
          }
          // Rounds narrows what the PMS lists; it never adds a type the PMS does not list for them.
          const pms = before.pms_appointment_type_ids;
          const beyond = pms === null ? [] : wanted.filter((typeId) => known.has(typeId) && !pms.includes(typeId));
          if (beyond.length) {
            problems.push(`skill_appointment_type_ids: ${beyond.join(', ')} ${beyond.length === 1 ? 'is not among the appointment types' : 'are not among the appointment types'} `
              + `Cliniko lists for ${fullName(before)}; Rounds can only narrow that list: add the type to the practitioner in Cliniko, then import.`);
          }
        }
        changes.skill_appointment_type_ids = wanted;
      }
      if (input.working_hours !== undefined) changes.working_hours = normaliseWorkingHours(input.working_hours);
      if (input.break !== undefined) {
        Object.assign(changes, input.break
          ? { break_earliest: input.break.earliest, break_latest: input.break.latest, break_minutes: input.break.minutes }
          : { break_earliest: null, break_latest: null, break_minutes: null });
      }
      if (input.max_visits !== undefined) changes.max_visits = input.max_visits;
      if (input.max_travel_minutes !== undefined) changes.max_travel_minutes = input.max_travel_minutes;
      if (input.time_zone !== undefined) changes.time_zone = canonicalTimeZone(input.time_zone)!;
      if (input.color !== undefined) changes.color = input.color?.toLowerCase() ?? null;

      // A place at home needs a home with a position, whichever of the two this request changes.
      const after: PractitionerRow = { ...before, ...changes };
      const touchesHome = input.home !== undefined || input.start_place !== undefined || input.end_place !== undefined;
      if (touchesHome && (after.home_lat === null || after.home_lng === null)) {
        const atHome = (['start', 'end'] as const).filter((which) => after[`${which}_place_kind`] === 'home');
        if (atHome.length) {
          const name = fullName(before);
          problems.push(input.home === null
            ? `home: ${name}'s day ${atHome.map((which) => `${which}s`).join(' and ')} at home; choose another place before removing the home address.`
            : `${atHome[0]}_place: ${name} has no home address with a map position yet; add the home address first, or choose another place.`);
        }
      }
      if (problems.length) throw invalid(problems[0], problems);

      const places = await placeSourcesOf(tx, businessAccountId);
      const recorded = changesBetween(workingDataView(before, places), workingDataView(after, places));
      if (!Object.keys(recorded).length) return;
      await updatePractitionerWorkingData(tx, [id], changes);
      await recordVersions(tx, [{ businessAccountId, itemType: 'Practitioner', itemId: id, event: 'update', whodunnit: auth.fullName, changes: recorded }]);
    });
    const [saved] = await this.listSettings(auth, undefined, [id]);
    if (!saved) throw notFound('Practitioner');
    return saved;
  }

  /**
   * Gives several practitioners the same working hours, in one transaction: all of them or, when any id is not one of
   * the business's practitioners, none (404 naming the ids). With `days`, only those weekdays change and each keeps
   * their own hours on the others. Each practitioner whose hours change gets a version; the answer names those whose
   * routed visits from today on now fall outside their hours.
   */
  async setWorkingHours(auth: AuthContext, practitionerIds: number[], hours: (WorkingHours | null)[], days?: number[]) {
    const problems = workingHoursProblems(hours);
    if (problems.length) throw invalid(problems[0], problems);
    const wanted = normaliseWorkingHours(hours);
    const changing = new Set(days ?? WEEKDAYS.map((_, day) => day));
    const { businessAccountId } = auth;
    const changed = await this.ctx.db.transaction(async (tx) => {
      const rows = await lockPractitioners(tx, businessAccountId, practitionerIds);
      const found = new Set(rows.map((row) => row.id));
      const missing = practitionerIds.filter((id) => !found.has(id));
      if (missing.length) throw notFound(`Practitioner ${missing.join(', ')}`);
      const updates = rows.map((row) => {
        const before = normaliseWorkingHours(row.working_hours);
        return { row, before, after: before.map((day, index) => (changing.has(index) ? wanted[index] : day)) };
      }).filter(({ before, after }) => JSON.stringify(before) !== JSON.stringify(after));
      for (const { row, after } of updates) await updatePractitionerWorkingData(tx, [row.id], { working_hours: after });
      await recordVersions(tx, updates.map(({ row, before, after }) => ({
        businessAccountId, itemType: 'Practitioner' as const, itemId: row.id, event: 'update' as const, whodunnit: auth.fullName,
        changes: { working_hours: [before, after] as [unknown, unknown] },
      })));
      return updates;
    });
    const outside = await this.routedVisitsOutsideHours(businessAccountId, changed.map(({ row, after }) => ({ row, hours: after })));
    return { practitioners: await this.listSettings(auth, undefined, practitionerIds), visits_outside_hours: outside };
  }

  /** How many of each practitioner's routed visits from today on fall outside `hours` on their day, in their zone. */
  private async routedVisitsOutsideHours(businessAccountId: number, practitioners: { row: PractitionerRow; hours: (WorkingHours | null)[] }[]) {
    const visits = await listUpcomingRoutedVisits(this.ctx.db, businessAccountId, practitioners.map(({ row }) => row.id), new Date(Date.now() - 24 * 3600_000));
    const today = new Map(practitioners.map(({ row }) => [row.id, Temporal.Now.plainDateISO(row.time_zone)]));
    return practitioners.flatMap(({ row, hours }) => {
      const count = visits.filter((visit) => {
        if (visit.practitioner_id !== row.id) return false;
        const starts = Temporal.Instant.from(visit.starts_at.toISOString()).toZonedDateTimeISO(row.time_zone);
        const ends = Temporal.Instant.from(visit.ends_at.toISOString()).toZonedDateTimeISO(row.time_zone);
        if (Temporal.PlainDate.compare(starts.toPlainDate(), today.get(row.id)!) < 0) return false;
        const shift = hours[starts.dayOfWeek - 1];
        if (!shift) return true;
        const endMinute = ends.toPlainDate().equals(starts.toPlainDate()) ? ends.hour * 60 + ends.minute : 24 * 60;
        return starts.hour * 60 + starts.minute < minutesOf(shift.start) || endMinute > minutesOf(shift.end);
      }).length;
      return count > 0 ? [{ practitioner_id: row.id, full_name: fullName(row), visits: count }] : [];
    });
  }
}
