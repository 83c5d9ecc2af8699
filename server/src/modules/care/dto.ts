// Care rows as the contract shows them.
import type { Schemas } from '../../http/contract';
import { clockOfMinutes } from './clock';
import type { AbsenceRow, AllocationRow, CarePlanRow, ClientRow, HolidayRow, OpenVisitRow, TypeRow } from './repository';

const typeDto = (type: TypeRow): Schemas['AppointmentType'] => ({ id: type.id, name: type.name, duration: type.duration, color: type.color });

export const openVisitDto = (row: OpenVisitRow, client: Pick<ClientRow, 'id' | 'name'>, type: TypeRow): Schemas['OpenVisit'] => ({
  id: row.id,
  client: { id: client.id, name: client.name },
  appointment_type: typeDto(type),
  date: row.date,
  window_start: clockOfMinutes(row.window_start),
  window_end: clockOfMinutes(row.window_end),
  duration_minutes: row.duration_minutes,
  reason: row.reason,
  care_plan_id: row.care_plan_id,
  notes: row.notes,
  created_at: row.created_at.toISOString(),
});

export const carePlanDto = (row: CarePlanRow, type: TypeRow, counts: { open: number; booked: number } | undefined): Schemas['CarePlan'] => ({
  id: row.id,
  client_id: row.client_id,
  appointment_type: typeDto(type),
  weekdays: [...row.weekdays].sort((a, b) => a - b),
  window_start: clockOfMinutes(row.window_start),
  window_end: clockOfMinutes(row.window_end),
  duration_minutes: row.duration_minutes,
  carers: row.carers,
  starts_on: row.starts_on,
  ends_on: row.ends_on,
  preferred_practitioner_ids: row.preferred_practitioner_ids,
  notes: row.notes,
  upcoming_visits: counts?.booked ?? 0,
  open_visits: counts?.open ?? 0,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export const absenceDto = (row: AbsenceRow): Schemas['ClientAbsence'] => ({
  id: row.id, client_id: row.client_id, starts_on: row.starts_on, ends_on: row.ends_on, reason: row.reason, note: row.note,
  created_at: row.created_at.toISOString(),
});

export const holidayDto = (row: HolidayRow): Schemas['PublicHoliday'] => ({ id: row.id, date: row.date, name: row.name });

export interface AllocationResult {
  visits: Schemas['CarePlanAllocationVisit'][];
  figures: Schemas['CarePlanAllocation']['figures'];
}

const NO_FIGURES: AllocationResult['figures'] = { visits: 0, placed: 0, unplaced: 0, added_travel_seconds: 0, hard_breaks: 0, carers_by_client: [] };

export const allocationDto = (row: AllocationRow): Schemas['CarePlanAllocation'] => {
  const result = row.result as AllocationResult | null;
  return {
    id: row.id,
    status: row.status,
    start_date: row.start_date,
    end_date: row.end_date,
    message: row.message,
    generated: row.generated,
    visits: result?.visits ?? [],
    figures: result?.figures ?? NO_FIGURES,
    created_at: row.created_at.toISOString(),
  };
};
