// The coordinator's desk: today's visits that need attention (not started, on the way too long, still there long
// past their booked length), by the one rule the day schedule also follows (server/src/lib/overdue.ts). The SQL only
// narrows the candidates (not cancelled, not over, planned to start in the day before now); which of them need the
// desk is the rule's to say.
import { deskAlert, deskAlertWords, type DeskAlert } from '../../lib/overdue';
import type { DbOrTx } from '../../db/client';
import { openVisitsPlannedBetween, overdueAfterMinutesOf } from './repository';

export interface DeskAlertVisit {
  appointmentId: number;
  practitionerId: number;
  alert: DeskAlert;
  /** What is wrong, in words. */
  text: string;
}

/** The travel to each visit of these practitioners' today from the visit before, in seconds, by appointment id. */
export type TravelToVisits = (practitionerIds: number[]) => Promise<ReadonlyMap<number, number>>;

/**
 * The visits planned to start between `dayStart` and `now` that need the desk at `now` by the business's setting, the
 * longest first; and the setting. The travel is asked only for the practitioners on their way somewhere.
 */
export async function deskAlerts(
  db: DbOrTx, businessAccountId: number, dayStart: Date, now: Date, travelTo: TravelToVisits,
): Promise<{ afterMinutes: number; visits: DeskAlertVisit[] }> {
  const [afterMinutes, candidates] = await Promise.all([
    overdueAfterMinutesOf(db, businessAccountId),
    now > dayStart ? openVisitsPlannedBetween(db, businessAccountId, dayStart, now) : Promise.resolve([]),
  ]);
  const travelling = [...new Set(candidates.filter((row) => row.visit_state === 'on_my_way').map((row) => row.practitioner_id))];
  const travel = travelling.length ? await travelTo(travelling) : new Map<number, number>();
  const visits: DeskAlertVisit[] = [];
  for (const row of candidates) {
    const alert = deskAlert({ ...row, cancelled: false, travel_seconds: travel.get(row.id) ?? null }, now, afterMinutes);
    if (!alert) continue;
    const text = deskAlertWords(alert, { client: row.client_name ?? 'a visit', practitioner: row.practitioner_name });
    visits.push({ appointmentId: row.id, practitionerId: row.practitioner_id, alert, text });
  }
  return { afterMinutes, visits: visits.sort((a, b) => b.alert.minutes - a.alert.minutes || a.appointmentId - b.appointmentId) };
}
