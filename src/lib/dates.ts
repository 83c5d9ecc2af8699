// Date display and request formats: dd MMM yyyy, dd/MM/yyyy, "dd MMM yyyy HH:mm",
// and yyyy-MM-dd for requests. Instants are shown in an explicit IANA zone, never the browser's by accident.
import { Temporal } from 'temporal-polyfill';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** An ISO instant ("2026-11-22T00:30:00Z" or with an offset) seen in `timeZone`. */
export function zonedFromInstant(iso: string, timeZone: string): Temporal.ZonedDateTime {
  return Temporal.Instant.from(iso).toZonedDateTimeISO(timeZone);
}

type DateLike = Pick<Temporal.PlainDate, 'year' | 'month' | 'day'>;

/** dd MMM yyyy, e.g. "05 Mar 2026". */
export function formatDay(date: DateLike): string {
  return `${pad(date.day)} ${MONTHS[date.month - 1]} ${date.year}`;
}

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/** A day in a run of days, e.g. "Tue 1 Dec". */
export function formatWeekday(date: string): string {
  const day = Temporal.PlainDate.from(date);
  return `${WEEKDAYS[day.dayOfWeek - 1]} ${day.day} ${MONTHS[day.month - 1]}`;
}

/** dd/MM/yyyy. */
export function formatDaySlashed(date: DateLike): string {
  return `${pad(date.day)}/${pad(date.month)}/${date.year}`;
}

/** yyyy-MM-dd, the request format. */
export function toRequestDate(date: DateLike): string {
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** HH:mm of an instant in a zone. */
export function formatTime(iso: string, timeZone: string): string {
  const zoned = zonedFromInstant(iso, timeZone);
  return `${pad(zoned.hour)}:${pad(zoned.minute)}`;
}

/** dd MMM yyyy HH:mm of an instant in a zone. */
export function formatDateTime(iso: string, timeZone: string): string {
  const zoned = zonedFromInstant(iso, timeZone);
  return `${formatDay(zoned)} ${pad(zoned.hour)}:${pad(zoned.minute)}`;
}

/** dd MMM yyyy of a calendar date string (yyyy-MM-dd), e.g. a date of birth. */
export function formatCalendarDate(isoDate: string): string {
  return formatDay(Temporal.PlainDate.from(isoDate));
}

/** "05 Mar 2026 – 12 Mar 2026", or the one day when the range starts and ends on it; days as dates or yyyy-MM-dd. */
export function formatDayRange(start: DateLike | string, end: DateLike | string): string {
  const [first, last] = [start, end].map((day) => (typeof day === 'string' ? formatCalendarDate(day) : formatDay(day)));
  return first === last ? first : `${first} – ${last}`;
}

export function todayIn(timeZone: string = browserTimeZone()): Temporal.PlainDate {
  return Temporal.Now.plainDateISO(timeZone);
}

/** A JS Date (from a date picker: local midnight) as a calendar date. */
export function plainDateFromJsDate(date: Date): Temporal.PlainDate {
  return Temporal.PlainDate.from({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
}

/** A calendar date as a JS Date at local midnight, for date pickers. */
export function jsDateFromPlainDate(date: DateLike): Date {
  return new Date(date.year, date.month - 1, date.day);
}

/** Minutes since local midnight of an instant in a zone (for placing blocks on a day axis). */
export function minutesIntoDay(iso: string, timeZone: string): number {
  const zoned = zonedFromInstant(iso, timeZone);
  return zoned.hour * 60 + zoned.minute + zoned.second / 60;
}

const TIME_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses "HH:mm"; null when it is not a valid 24-hour time. */
export function parseTimeOfDay(value: string): { hour: number; minute: number } | null {
  const match = TIME_PATTERN.exec(value);
  return match ? { hour: Number(match[1]), minute: Number(match[2]) } : null;
}

/**
 * The ISO timestamp (with the zone's offset, e.g. "2026-11-22T09:35:00+10:00") of `time` (HH:mm) on the
 * calendar day that `sameDayAs` falls on in `timeZone`.
 */
export function instantAtTimeOnSameDay(sameDayAs: string, time: string, timeZone: string): string {
  return instantAtTimeOnDay(zonedFromInstant(sameDayAs, timeZone).toPlainDate(), time, timeZone);
}

/** The ISO timestamp (with the zone's offset) of `time` (HH:mm) on `day` in `timeZone`. */
export function instantAtTimeOnDay(day: Temporal.PlainDate, time: string, timeZone: string): string {
  const parsed = parseTimeOfDay(time);
  if (!parsed) throw new Error(`time must be HH:mm, got "${time}"`);
  const zoned = day.toZonedDateTime({ timeZone, plainTime: Temporal.PlainTime.from(parsed) });
  return zoned.toString({ timeZoneName: 'never', fractionalSecondDigits: 0 });
}

/**
 * A typed time of day as "HH:mm" (24-hour), accepting what people type on any keyboard: "09:35", "9:35", "9.35",
 * "0935", "935". Null when it is not a time of day.
 */
export function normaliseTimeOfDay(value: string): string | null {
  const text = value.trim();
  const match = /^(\d{1,2})[:.h]?(\d{2})$/.exec(text);
  if (!match) return null;
  const normalised = `${match[1].padStart(2, '0')}:${match[2]}`;
  return parseTimeOfDay(normalised) ? normalised : null;
}

/** "HH:mm" moved by `minutes` (wrapping around midnight), snapped to multiples of `minutes`; null when not a time. */
export function stepTimeOfDay(value: string, minutes: number): string | null {
  const parsed = parseTimeOfDay(normaliseTimeOfDay(value) ?? '');
  if (!parsed) return null;
  const step = Math.abs(minutes);
  const current = parsed.hour * 60 + parsed.minute;
  const snapped = minutes > 0 ? Math.floor(current / step) * step + step : Math.ceil(current / step) * step - step;
  const total = (snapped + 24 * 60) % (24 * 60);
  return `${pad(Math.floor(total / 60))}:${pad(total % 60)}`;
}
