// The day model: a day's visits as every part of the schedule reads them, the day's clock (seconds from midnight
// starting the day in the business's time zone, so practitioners and clients on other clocks share one axis), and a
// client's availability on that clock; and which days the API accepts. Pure.
import { Temporal } from 'temporal-polyfill';
import type { AvailabilityEntry } from '../../db/schema';
import { invalid } from '../../http/errors';
import { EARLIEST_DATE, LATEST_DATE } from '../../lib/day-range';
import type { TimeWindow } from '../../optimizer';

/** One non-cancelled visit of the day, as the schedule reads it. */
export interface DayVisit {
  id: number;
  practitionerId: number;
  practitionerName: string;
  clientId: number | null;
  clientName: string | null;
  clientTimeZone: string | null;
  availability: AvailabilityEntry[];
  appointmentTypeId: number | null;
  startsAt: Date;
  endsAt: Date;
  arriveAt: Date | null;
  /** The start the client agreed to (ADR 0023): the tolerance is measured from it, and moving away from it has a price. */
  agreedStartsAt: Date;
  arrivalLocked: boolean;
  /** As its steps left it (not_started, on_my_way, arrived, done, could_not_attend); absent: not started. */
  visitState?: string;
  /** The visit's point: the appointment's own, else the client's; null when neither has one. */
  lat: number | null;
  lng: number | null;
  updatedAt: Date;
  /** The client's preferred and excluded practitioners (absent: none). */
  preferredPractitionerIds?: number[];
  excludedPractitionerIds?: number[];
}

const minutesOf = (hhmm: string) => {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return hours * 60 + minutes;
};

export const dayStartMs = (date: string, timeZone: string): number =>
  Temporal.PlainDate.from(date).toZonedDateTime({ timeZone }).epochMilliseconds;

/** The yyyy-MM-dd day of an instant in a time zone. */
export const dayOf = (instant: Date, timeZone: string) =>
  Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone).toPlainDate().toString();

/** Refuses (422, naming the field) anything but a real yyyy-MM-dd day within the dates the API accepts. */
export function checkDay(date: string, field = 'date'): void {
  try {
    Temporal.PlainDate.from(date, { overflow: 'reject' });
  } catch {
    throw invalid(`${field} must be a date written yyyy-MM-dd.`);
  }
  if (date < EARLIEST_DATE || date > LATEST_DATE) throw invalid(`${field} must be between ${EARLIEST_DATE} and ${LATEST_DATE} (got ${date}).`);
}

/** A day as instants: [from, to) in the business's time zone. */
export interface DayBounds { from: Date; to: Date }

export function dayBounds(date: string, timeZone: string): DayBounds {
  const next = Temporal.PlainDate.from(date).add({ days: 1 }).toString();
  return { from: new Date(dayStartMs(date, timeZone)), to: new Date(dayStartMs(next, timeZone)) };
}

/** Seconds on the day's clock of the wall-clock time `hhmm` ('24:00' = the next midnight) on `date` in `timeZone`. */
function clockSeconds(date: Temporal.PlainDate, hhmm: string, timeZone: string, zeroMs: number): number {
  // The instant of a wall-clock time is the same for every visit on that day in that zone: worked out once.
  const key = `${timeZone}|${date.toString()}|${hhmm}`;
  let epochMs = clockInstants.get(key);
  if (epochMs === undefined) {
    const minutes = minutesOf(hhmm);
    const day = minutes >= 24 * 60 ? date.add({ days: 1 }) : date;
    const rest = minutes % (24 * 60);
    epochMs = day.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from({ hour: Math.floor(rest / 60), minute: rest % 60 }) }).epochMilliseconds;
    if (clockInstants.size >= 20_000) clockInstants.clear();
    clockInstants.set(key, epochMs);
  }
  return (epochMs - zeroMs) / 1000;
}

const clockInstants = new Map<string, number>();

export const secondsOf = (instant: Date, zeroMs: number) => (instant.getTime() - zeroMs) / 1000;

/**
 * The instant `seconds` after `zeroMs`, as ISO text, on the next whole second: the practice management system keeps
 * whole seconds, and a fraction of travel rounded down would arrive before the practitioner can.
 */
export const instantOfSeconds = (zeroMs: number, seconds: number) => new Date(zeroMs + Math.ceil(seconds - 1e-6) * 1000).toISOString();

/** The arrival a visit has today: its arrival time, else its booked start. */
export const currentArrival = (visit: Pick<DayVisit, 'arriveAt' | 'startsAt'>) => visit.arriveAt ?? visit.startsAt;

const SLOT = /^(\d\d):(\d\d)-(\d\d):(\d\d)$/;

/**
 * A client's availability on the visit's day as windows for its start, read as the app reads it (src/lib/availability.ts):
 * on the client's clock (the practitioner's when the client has none); no entries = no custom availability (null);
 * a day not listed = unavailable ([]); a listed day without hours = all day; 'HH:mm-HH:mm' slots start inclusive, end
 * exclusive. Back-to-back slots are one window.
 */
export function availabilityWindows(visit: Pick<DayVisit, 'availability' | 'clientTimeZone' | 'startsAt'>, practitionerTimeZone: string, zeroMs: number): TimeWindow[] | null {
  if (!visit.availability || visit.availability.length === 0) return null;
  const timeZone = visit.clientTimeZone || practitionerTimeZone;
  const localDate = localDateOf(visit.startsAt.getTime(), timeZone);
  const entry = visit.availability.find((candidate) => candidate.dow === localDate.dayOfWeek % 7);
  if (!entry) return [];
  const slots = (entry.hours && entry.hours.length ? entry.hours : ['00:00-24:00']).flatMap((slot) => {
    const match = SLOT.exec(slot);
    if (!match) return [];
    const from = Number(match[1]) * 60 + Number(match[2]);
    const to = Number(match[3]) * 60 + Number(match[4]);
    return to > from && to <= 24 * 60 ? [{ from, to }] : [];
  }).sort((a, b) => a.from - b.from);
  const merged: { from: number; to: number }[] = [];
  for (const slot of slots) {
    const last = merged.at(-1);
    if (last && slot.from <= last.to) last.to = Math.max(last.to, slot.to);
    else merged.push({ ...slot });
  }
  const time = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
  return merged.map(({ from, to }) => ({
    start: clockSeconds(localDate, time(from), timeZone, zeroMs),
    end: clockSeconds(localDate, time(to), timeZone, zeroMs) - 1,
  }));
}

/**
 * The date an instant falls on in a time zone. Zone offsets and their changes fall on whole quarter hours, so every
 * instant of a quarter hour (UTC) has the same date: it is worked out once per zone and quarter hour.
 */
function localDateOf(epochMs: number, timeZone: string): Temporal.PlainDate {
  const key = `${timeZone}|${Math.floor(epochMs / QUARTER_HOUR_MS)}`;
  let date = localDates.get(key);
  if (!date) {
    date = Temporal.Instant.fromEpochMilliseconds(epochMs).toZonedDateTimeISO(timeZone).toPlainDate();
    if (localDates.size >= 20_000) localDates.clear();
    localDates.set(key, date);
  }
  return date;
}

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const localDates = new Map<string, Temporal.PlainDate>();

/** Whether a start (day-clock seconds) is outside the visit's availability windows (never, without custom availability). */
export function startsOutside(windows: TimeWindow[] | null, start: number): boolean {
  if (windows === null) return false;
  return !windows.some((window) => start >= window.start - 1e-6 && start <= window.end + 1e-6);
}

/**
 * Whether visits' arrivals (else starts) are outside their clients' availability: the rule above, for many visits
 * (a report's). `day` is the visit's day on the clock the rule reads it on (the client's, else the practitioner's):
 * the windows of each availability, clock and day are worked out once.
 */
export function availabilityChecker() {
  const known = new Map<string, TimeWindow[] | null>();
  return (visit: Pick<DayVisit, 'availability' | 'clientTimeZone' | 'startsAt' | 'arriveAt'>, practitionerTimeZone: string, day: string): boolean => {
    const key = `${day} ${visit.clientTimeZone || practitionerTimeZone} ${JSON.stringify(visit.availability)}`;
    let windows = known.get(key);
    // Any clock zero will do: the windows and the arrival are read on the same one.
    if (windows === undefined) known.set(key, windows = availabilityWindows(visit, practitionerTimeZone, 0));
    return startsOutside(windows, secondsOf(currentArrival(visit), 0));
  };
}
