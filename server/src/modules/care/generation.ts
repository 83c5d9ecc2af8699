// Generating care plans' visits: each plan's occurrences on its weekdays within its dates, as open visits (one per
// carer), skipping public holidays, the client's absences, occurrences generated before (whatever became of them) and
// those the client already has a booked visit of that type for in the window (imported bookings count: a plan for an
// existing client never doubles their visits).
import type { DbOrTx } from '../../db/client';
import { addDays, datesBetween, instantOn, isoWeekday } from './clock';
import {
  absencesBetween, bookedVisitsOf, clientsByIds, insertOccurrences, listHolidays, plansRunningBetween, type CarePlanRow, type NewOpenVisit, type OpenVisitRow,
} from './repository';

export const newInPlanReason = (clientName: string) => `New in ${clientName}'s care plan`;

interface Booked { clientId: number | null; typeId: number | null; startsAt: Date; endsAt: Date }

/** The occurrences of `plans` on [from, to] that no holiday, absence or booking already covers. Pure. */
export function occurrencesOf(
  plans: readonly CarePlanRow[], from: string, to: string, timeZone: string,
  holidays: ReadonlySet<string>, absences: ReadonlyMap<number, { starts_on: string; ends_on: string }[]>, booked: readonly Booked[],
  clientNames: ReadonlyMap<number, string>,
): NewOpenVisit[] {
  const rows: NewOpenVisit[] = [];
  for (const plan of plans) {
    const first = plan.starts_on > from ? plan.starts_on : from;
    const last = plan.ends_on !== null && plan.ends_on < to ? plan.ends_on : to;
    if (first > last) continue;
    for (const date of datesBetween(first, last)) {
      if (!plan.weekdays.includes(isoWeekday(date)) || holidays.has(date)) continue;
      if ((absences.get(plan.client_id) ?? []).some((absence) => absence.starts_on <= date && date <= absence.ends_on)) continue;
      const windowFrom = instantOn(date, plan.window_start, timeZone).getTime();
      const windowTo = instantOn(date, plan.window_end, timeZone).getTime();
      const already = booked.filter((visit) => visit.clientId === plan.client_id && visit.typeId === plan.appointment_type_id
        && visit.startsAt.getTime() < windowTo && visit.endsAt.getTime() > windowFrom).length;
      for (let carer = already; carer < plan.carers; carer++) {
        rows.push({
          client_id: plan.client_id, appointment_type_id: plan.appointment_type_id, care_plan_id: plan.id, date,
          window_start: plan.window_start, window_end: plan.window_end, duration_minutes: plan.duration_minutes, carer_index: carer,
          reason: newInPlanReason(clientNames.get(plan.client_id) ?? 'the client'), notes: plan.notes,
        });
      }
    }
  }
  return rows;
}

/**
 * Generates the open visits of the business's plans (or of `planIds`) on [from, to] in the transaction; answers the
 * open visits it added (an occurrence generated before, open, filled or removed, is never added again).
 */
export async function generateOpenVisits(
  tx: DbOrTx, business: number, timeZone: string, from: string, to: string, planIds?: readonly number[],
): Promise<OpenVisitRow[]> {
  const plans = (await plansRunningBetween(tx, business, from, to)).filter((plan) => !planIds || planIds.includes(plan.id));
  if (plans.length === 0) return [];
  const clientIds = [...new Set(plans.map((plan) => plan.client_id))];
  const [holidays, absences, booked, clients] = await Promise.all([
    listHolidays(tx, business, from, to),
    absencesBetween(tx, business, from, to),
    bookedVisitsOf(tx, business, clientIds, instantOn(addDays(from, -1), 0, timeZone), instantOn(addDays(to, 2), 0, timeZone)),
    clientsByIds(tx, business, clientIds),
  ]);
  const byClient = new Map<number, { starts_on: string; ends_on: string }[]>();
  for (const absence of absences) byClient.set(absence.client_id, [...(byClient.get(absence.client_id) ?? []), absence]);
  const rows = occurrencesOf(
    plans, from, to, timeZone, new Set(holidays.map((holiday) => holiday.date)), byClient, booked,
    new Map([...clients].map(([id, client]) => [id, client.name])),
  );
  return insertOccurrences(tx, business, rows);
}
