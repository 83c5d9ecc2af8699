// The coordinator's live desk on the web: while today is shown, the day's list is read again every 15 s (and at once
// when the server pushes a change: useLiveDesk); visits not started, on the way or still there past the business's
// overdue_after_minutes need the desk, and each practitioner's lateness is how late they arrived at their current or
// last visit. The rules themselves are the server's, imported as they are
// (server/src/lib/overdue.ts), so the schedule and the dashboard count the same visits.
import { useEffect, useState } from 'react';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import {
  deskAlert, laneLateness, minutesWords, OVERDUE_AFTER_MINUTES_DEFAULT, type DeskAlert, type DeskVisit, type LaneLateness,
} from '../../../server/src/lib/overdue';
import type { AppointmentSummary } from './api';
import { isCancelled } from './facts';

export { deskAlertWords, OVERDUE_AFTER_MINUTES_DEFAULT, OVERDUE_AFTER_MINUTES_MAX, OVERDUE_AFTER_MINUTES_MIN, type DeskAlert } from '../../../server/src/lib/overdue';

/** How often a day shown live (today) is read again: at most every 15 s. */
export const LIVE_REFRESH_MS = 15_000;

/** The list's refetchInterval: every LIVE_REFRESH_MS while the day shown is today (the business's), else never. */
export function liveRefetchInterval(shownDays: readonly string[], today: string): number | false {
  return shownDays.includes(today) ? LIVE_REFRESH_MS : false;
}

type Visit = Pick<AppointmentSummary, 'starts_at' | 'ends_at' | 'arrive_at' | 'status' | 'visit_state' | 'visit'>;

/** What the shared rules read of a listed visit. */
export function deskVisitOf<V extends Visit>(appointment: V): DeskVisit & { appointment: V } {
  return {
    starts_at: appointment.starts_at,
    arrive_at: appointment.arrive_at,
    // A list answered before visits had states (a cached page) reads as not started.
    visit_state: appointment.visit_state ?? 'not_started',
    cancelled: isCancelled(appointment),
    arrived_at: appointment.visit?.arrived_at ?? null,
    on_my_way_at: appointment.visit?.on_my_way_at ?? null,
    ends_at: appointment.ends_at,
    appointment,
  };
}

/**
 * The visits that need the desk at `now` by id, each with what is wrong (the shared rule); `travelSeconds` is the
 * travel to each visit from the one before (the day's travel), when known.
 */
export function deskAlerts(
  appointments: readonly (Visit & { id: number })[], now: number, afterMinutes: number, travelSeconds?: ReadonlyMap<number, number>,
): ReadonlyMap<number, DeskAlert> {
  const alerts = new Map<number, DeskAlert>();
  for (const appointment of appointments) {
    const alert = deskAlert({ ...deskVisitOf(appointment), travel_seconds: travelSeconds?.get(appointment.id) ?? null }, now, afterMinutes);
    if (alert) alerts.set(appointment.id, alert);
  }
  return alerts;
}

/** A practitioner's lateness now from their day's visits (see laneLateness), or null. */
export function practitionerLateness<V extends Visit>(appointments: readonly V[]): LaneLateness<DeskVisit & { appointment: V }> | null {
  return laneLateness(appointments.map(deskVisitOf));
}

/** "40 min", "1 h 5 min": how late (the shared rule's words). */
export const lateWords = minutesWords;

/** An alert in a few words, beside the visit it is about: "40 min late", "On the way 52 min", "There 2 h 10 min, booked 45 min". */
export function alertShortWords(alert: DeskAlert): string {
  switch (alert.kind) {
    case 'not_started': return `${minutesWords(alert.minutes)} late`;
    case 'on_the_way': return `On the way ${minutesWords(alert.minutes)}`;
    case 'still_there': return `There ${minutesWords(alert.minutes)}, booked ${minutesWords(alert.bookedMinutes)}`;
  }
}

/** The business's overdue_after_minutes, from the signed-in user's business (the default before it is known). */
export function useOverdueAfterMinutes(): number {
  return useAuthSelector(selectUser)?.business_account.overdue_after_minutes ?? OVERDUE_AFTER_MINUTES_DEFAULT;
}

/** Now in epoch ms, read again every `everyMs` while `live` (so a visit becomes overdue between two reads of the day). */
export function useNow(everyMs: number, live: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!live) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs, live]);
  return now;
}
