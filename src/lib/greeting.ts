import { Temporal } from 'temporal-polyfill';

/** "Good morning" before 12:00, "Good afternoon" before 18:00, "Good evening" after — at `now` in `timeZone`. */
export function greetingFor(now: Date, timeZone: string): string {
  const hour = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).hour;
  if (hour < 12) return 'Good morning';
  if (hour < 18) return 'Good afternoon';
  return 'Good evening';
}
