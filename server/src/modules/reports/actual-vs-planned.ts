// Actual vs planned: the one rule by which the reports judge a visit's punctuality now that visits are
// checked in. A visit with an Arrived check-in (since it was last reopened) is judged by it: on time when it arrived
// within the visit's booked-time tolerance of its planned arrival (the rule book's tolerance_minutes, its type's else
// the business's; the planned arrival is the arrival time, else the booked start). A visit without one is judged by
// its plan: its planned arrival within the client's availability (the travel summary's `punctual`, the optimiser's
// rule). A visit that could not be attended is not judged. Visit verification shows it per visit; Practitioner
// performance adds it up per practitioner.
import { sql } from 'drizzle-orm';
import { queryRows } from '../../db/client';
import type { AppContext } from '../../http/context';
import { visitRecords, type VisitRecord } from '../appointments';
import { freshTravelSummary } from '../travel';
import type { ReportFilters } from './filters';

export type PunctualityFrom = 'check_in' | 'planned';
export interface VisitPunctuality { punctual: boolean | null; from: PunctualityFrom | null }

type Judged = Pick<VisitRecord, 'visitState' | 'arrivedAt' | 'plannedArrivalAt' | 'toleranceMinutes'>;

/** A visit's punctuality and what it was judged from; `planned` is the travel summary's (undefined: not summarised). */
export function punctualityOf(record: Judged, planned: boolean | undefined): VisitPunctuality {
  if (record.visitState === 'could_not_attend') return { punctual: null, from: null };
  if (record.arrivedAt) {
    const late = Math.abs(record.arrivedAt.getTime() - record.plannedArrivalAt.getTime());
    return { punctual: late <= record.toleranceMinutes * 60_000, from: 'check_in' };
  }
  return planned === undefined ? { punctual: null, from: null } : { punctual: planned, from: 'planned' };
}

/** The planned punctuality of the range's summarised visits (fresh first), by appointment; `only`: just those visits. */
export async function plannedPunctuality(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters, range: { startDate: string; endDate: string }, only?: readonly number[],
): Promise<Map<number, boolean>> {
  if (only?.length === 0) return new Map();
  await freshTravelSummary(ctx.db, ctx.config, businessAccountId, range, filters.practitionerIds);
  const rows = await queryRows<{ appointment_id: number; punctual: boolean }>(ctx.db, sql`
    SELECT t.appointment_id, t.punctual FROM travel_summary_visits t
    WHERE t.business_account_id = ${businessAccountId} AND t.day BETWEEN ${range.startDate}::date AND ${range.endDate}::date
      ${only ? sql`AND t.appointment_id = ANY(${`{${only.join(',')}}`}::int[])` : sql``}`);
  return new Map(rows.map((row) => [row.appointment_id, row.punctual]));
}

/** Per practitioner, what the check-ins change in the planned figures. */
export interface CheckInPunctuality {
  /** Visits judged by their check-in, and those of them on time. */
  checkedIn: number;
  onTime: number;
  /** Visits that could not be attended (not judged). */
  missed: number;
  /** Of the visits judged by a check-in or not judged, those whose plan was punctual (the planned count to take back). */
  plannedPunctual: number;
}

/**
 * The range's started visits' punctuality per practitioner, for a report that counts the planned punctuality of every
 * visit (the travel summary's totals): reading only the visits with steps keeps a range without check-ins as cheap
 * as before.
 */
export async function checkInPunctuality(
  ctx: AppContext, businessAccountId: number, filters: ReportFilters, range: { startDate: string; endDate: string },
): Promise<Map<number, CheckInPunctuality>> {
  const started = await visitRecords(ctx.db, businessAccountId, {
    ...range, practitionerIds: filters.practitionerIds, appointmentTypeIds: filters.appointmentTypeIds, businessLocationIds: filters.businessLocationIds,
    startedOnly: true,
  });
  const judgedOtherwise = started.filter((record) => record.arrivedAt !== null || record.visitState === 'could_not_attend');
  const planned = await plannedPunctuality(ctx, businessAccountId, filters, range, judgedOtherwise.map((record) => record.appointmentId));
  const per = new Map<number, CheckInPunctuality>();
  for (const record of judgedOtherwise) {
    const own = per.get(record.practitionerId) ?? { checkedIn: 0, onTime: 0, missed: 0, plannedPunctual: 0 };
    const { punctual, from } = punctualityOf(record, planned.get(record.appointmentId));
    if (from === 'check_in') {
      own.checkedIn += 1;
      if (punctual) own.onTime += 1;
    } else {
      own.missed += 1;
    }
    if (planned.get(record.appointmentId)) own.plannedPunctual += 1;
    per.set(record.practitionerId, own);
  }
  return per;
}
