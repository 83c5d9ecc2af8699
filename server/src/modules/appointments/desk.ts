// The coordinator's desk: today's overdue visits, by the one rule the day schedule also follows
// (server/src/lib/overdue.ts). The SQL only narrows the candidates (not cancelled, no check-in, planned to start in the
// day before now); which of them are overdue is the rule's to say.
import { minutesOverdue } from '../../lib/overdue';
import type { DbOrTx } from '../../db/client';
import { notStartedVisitsPlannedBetween, overdueAfterMinutesOf } from './repository';

export interface OverdueVisit {
  appointmentId: number;
  practitionerId: number;
  clientName: string | null;
  /** Whole minutes past its planned start. */
  minutes: number;
}

/**
 * The visits planned to start between `dayStart` and `now` that are overdue at `now` by the business's setting, the
 * latest first; and the setting.
 */
export async function overdueVisits(
  db: DbOrTx, businessAccountId: number, dayStart: Date, now: Date,
): Promise<{ afterMinutes: number; visits: OverdueVisit[] }> {
  const [afterMinutes, candidates] = await Promise.all([
    overdueAfterMinutesOf(db, businessAccountId),
    now > dayStart ? notStartedVisitsPlannedBetween(db, businessAccountId, dayStart, now) : Promise.resolve([]),
  ]);
  const visits: OverdueVisit[] = [];
  for (const row of candidates) {
    const minutes = minutesOverdue({ ...row, cancelled: false }, now, afterMinutes);
    if (minutes !== null) visits.push({ appointmentId: row.id, practitionerId: row.practitioner_id, clientName: row.client_name, minutes });
  }
  return { afterMinutes, visits: visits.sort((a, b) => b.minutes - a.minutes || a.appointmentId - b.appointmentId) };
}
