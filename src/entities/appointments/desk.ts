// The coordinator's live desk on the web: while today is shown, the day's list is read again every 15 s;
// visits with no check-in past the business's overdue_after_minutes are overdue, and each practitioner's lateness is
// how late they arrived at their current or last visit. The rules themselves are the server's, imported as they are
// (server/src/lib/overdue.ts), so the schedule and the dashboard count the same visits.
import { useEffect, useState } from 'react';
import { useAuthSelector } from '../../app/ServicesContext';
import { selectUser } from '../../machines/auth';
import {
  laneLateness, minutesOverdue, OVERDUE_AFTER_MINUTES_DEFAULT, type DeskVisit, type LaneLateness,
} from '../../../server/src/lib/overdue';
import type { AppointmentSummary } from './api';
import { isCancelled } from './facts';

export { OVERDUE_AFTER_MINUTES_DEFAULT, OVERDUE_AFTER_MINUTES_MAX, OVERDUE_AFTER_MINUTES_MIN } from '../../../server/src/lib/overdue';

/** How often a day shown live (today) is read again: at most every 15 s. */
export const LIVE_REFRESH_MS = 15_000;

/** The list's refetchInterval: every LIVE_REFRESH_MS while the day shown is today (the business's), else never. */
export function liveRefetchInterval(shownDays: readonly string[], today: string): number | false {
  return shownDays.includes(today) ? LIVE_REFRESH_MS : false;
}

type Visit = Pick<AppointmentSummary, 'starts_at' | 'arrive_at' | 'status' | 'visit_state' | 'visit'>;

/** What the shared rules read of a listed visit. */
export function deskVisitOf<V extends Visit>(appointment: V): DeskVisit & { appointment: V } {
  return {
    starts_at: appointment.starts_at,
    arrive_at: appointment.arrive_at,
    // A list answered before visits had states (a cached page) reads as not started.
    visit_state: appointment.visit_state ?? 'not_started',
    cancelled: isCancelled(appointment),
    arrived_at: appointment.visit?.arrived_at ?? null,
    appointment,
  };
}

/** The overdue visits at `now` by id, each with the whole minutes past its planned start. */
export function overdueVisits(appointments: readonly (Visit & { id: number })[], now: number, afterMinutes: number): ReadonlyMap<number, number> {
  const overdue = new Map<number, number>();
  for (const appointment of appointments) {
    const minutes = minutesOverdue(deskVisitOf(appointment), now, afterMinutes);
    if (minutes !== null) overdue.set(appointment.id, minutes);
  }
  return overdue;
}

/** A practitioner's lateness now from their day's visits (see laneLateness), or null. */
export function practitionerLateness<V extends Visit>(appointments: readonly V[]): LaneLateness<DeskVisit & { appointment: V }> | null {
  return laneLateness(appointments.map(deskVisitOf));
}

/** "40 min", "1 h 5 min": how late. */
export function lateWords(minutes: number): string {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest ? `${Math.floor(minutes / 60)} h ${rest} min` : `${minutes / 60} h`;
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
