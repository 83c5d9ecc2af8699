// Whether an arrival falls outside a client's custom availability. Pure and shared by the appointments list,
// the day schedule and the appointment modal (and usable on the server).
import { Temporal } from 'temporal-polyfill';

export interface AvailabilityWindow {
  /** 0 = Sunday … 6 = Saturday */
  dow: number;
  /** 'HH:mm-HH:mm' slots, start inclusive and end exclusive; absent or empty means all day. */
  hours?: readonly string[] | null;
}

export interface AvailabilityCheck {
  /** ISO 8601 instant, e.g. '2026-11-24T09:00:00+10:00' or '2026-11-23T23:00:00Z'. */
  arriveAt: string;
  availability: readonly AvailabilityWindow[] | null | undefined;
  /** The client's IANA zone; when missing the practitioner's zone is used. */
  clientTimeZone?: string | null;
  practitionerTimeZone: string;
}

const SLOT = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/;

/** Minutes since midnight of a 'HH:mm-HH:mm' slot, or null when the text is not a slot. */
export function parseSlot(slot: string): { from: number; to: number } | null {
  const match = SLOT.exec(slot);
  if (!match) return null;
  const from = Number(match[1]) * 60 + Number(match[2]);
  const to = Number(match[3]) * 60 + Number(match[4]);
  if (to > 24 * 60 || to <= from) return null;
  return { from, to };
}

/** The wall-clock day of week (0 = Sunday) and minute of day of an instant in a time zone. */
export function localDayAndMinute(arriveAt: string, timeZone: string): { dow: number; minute: number } {
  const local = Temporal.Instant.from(arriveAt).toZonedDateTimeISO(timeZone);
  return { dow: local.dayOfWeek % 7, minute: local.hour * 60 + local.minute };
}

/**
 * True when the client has custom availability and the arrival is not within it. A day missing from the list is
 * unavailable; a listed day without hours is available all day. Evaluated on the wall clock of the client's time
 * zone, or the practitioner's when the client has none. An unparseable arrival or zone yields false (no warning
 * rather than a wrong one); an unparseable slot is ignored.
 */
export function isOutsideAvailability({ arriveAt, availability, clientTimeZone, practitionerTimeZone }: AvailabilityCheck): boolean {
  if (!availability || availability.length === 0) return false;
  let local: { dow: number; minute: number };
  try {
    local = localDayAndMinute(arriveAt, clientTimeZone || practitionerTimeZone);
  } catch {
    return false;
  }
  const day = availability.find((entry) => entry.dow === local.dow);
  if (!day) return true;
  if (!day.hours || day.hours.length === 0) return false;
  return !day.hours.some((slot) => {
    const range = parseSlot(slot);
    return range !== null && local.minute >= range.from && local.minute < range.to;
  });
}
