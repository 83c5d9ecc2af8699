// When a business's daily reminders are due: at its reminder hour in its time zone, for the visits of the next day.
import { Temporal } from 'temporal-polyfill';

/**
 * The instant of `hour`:00 on `date` in `timeZone`. On the day the clocks skip that hour (spring forward) it is the
 * next hour that exists (02:00 → 03:00 in Sydney); on the day they repeat it (fall back), the first of the two.
 */
export function reminderDueAt(date: string, hour: number, timeZone: string): Date {
  const zoned = Temporal.PlainDate.from(date).toZonedDateTime({ timeZone, plainTime: new Temporal.PlainTime(hour) });
  return new Date(zoned.epochMilliseconds);
}

/** The business's today at `now`, and the reminder batch of that day: when it is due and the visit day it reminds of. */
export function reminderSlot(now: Date, hour: number, timeZone: string): { today: string; dueAt: Date; visitDate: string } {
  const today = Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).toPlainDate();
  return { today: today.toString(), dueAt: reminderDueAt(today.toString(), hour, timeZone), visitDate: today.add({ days: 1 }).toString() };
}

/** The business's today at `now`. */
export function todayIn(timeZone: string, now = new Date()): string {
  return Temporal.Instant.fromEpochMilliseconds(now.getTime()).toZonedDateTimeISO(timeZone).toPlainDate().toString();
}

/** The instants a local day runs from (inclusive) and to (exclusive). */
export function dayRange(date: string, timeZone: string): { from: Date; to: Date } {
  const day = Temporal.PlainDate.from(date);
  return {
    from: new Date(day.toZonedDateTime({ timeZone }).epochMilliseconds),
    to: new Date(day.add({ days: 1 }).toZonedDateTime({ timeZone }).epochMilliseconds),
  };
}
