// Care plans' days and windows: ISO weekdays, 'HH:MM' windows stored as minutes from local midnight in the business's
// time zone, and the instants of a window on a day (Temporal with the zone, so a daylight-saving day is right).
import { Temporal } from 'temporal-polyfill';
import { invalid } from '../../http/errors';
import { dateProblem } from '../../lib/day-range';

export const minutesOfClock = (hhmm: string): number => {
  const [hours, minutes] = hhmm.split(':').map(Number);
  return hours * 60 + minutes;
};

export const clockOfMinutes = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The instant a local time of a day is in the zone (minutes from its midnight; 1440 is the next midnight). */
export const instantOn = (date: string, minutes: number, timeZone: string): Date => {
  const day = Temporal.PlainDate.from(date).add({ days: Math.floor(minutes / 1440) });
  const rest = minutes % 1440;
  return new Date(day.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from({ hour: Math.floor(rest / 60), minute: rest % 60 }) }).epochMilliseconds);
};

/** The local day of an instant in the zone, and its minutes from that day's midnight. */
export const localClockOf = (instant: Date, timeZone: string): { date: string; minutes: number } => {
  const local = Temporal.Instant.fromEpochMilliseconds(instant.getTime()).toZonedDateTimeISO(timeZone);
  return { date: local.toPlainDate().toString(), minutes: local.hour * 60 + local.minute };
};

export const today = (timeZone: string): string => Temporal.Now.plainDateISO(timeZone).toString();

export const addDays = (date: string, days: number): string => Temporal.PlainDate.from(date).add({ days }).toString();

export const isoWeekday = (date: string): number => Temporal.PlainDate.from(date).dayOfWeek;

/** The dates from `first` to `last`, both included. */
export function datesBetween(first: string, last: string): string[] {
  const dates: string[] = [];
  for (let day = Temporal.PlainDate.from(first); Temporal.PlainDate.compare(day, last) <= 0; day = day.add({ days: 1 })) dates.push(day.toString());
  return dates;
}

/** A requested day, held to the dates the API accepts; 422 naming the field. */
export function parseDay(value: string, field: string): string {
  const problem = dateProblem(value, field);
  if (problem) throw invalid(problem);
  return Temporal.PlainDate.from(value).toString();
}

/** "Thursday 10 Dec 07:30–09:00". */
export function windowInWords(date: string, start: number, end: number): string {
  const day = Temporal.PlainDate.from(date).toLocaleString('en-AU', { weekday: 'long', day: 'numeric', month: 'short' });
  return `${day} ${clockOfMinutes(start)}–${clockOfMinutes(end)}`;
}
