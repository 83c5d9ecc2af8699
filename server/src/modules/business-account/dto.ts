// Account settings as the contract's BusinessAccount.
import type { Schemas } from '../../http/contract';
import { mapCenterOf } from '../../lib/map-center';
import type { BusinessAccountRow } from './repository';

export const toBusinessAccountDto = (row: BusinessAccountRow): Schemas['BusinessAccount'] => ({
  id: row.id,
  name: row.name,
  time_zone: row.time_zone,
  contact_email: row.contact_email,
  contact_phone: row.contact_phone,
  map_center: mapCenterOf(row),
  map_center_is_default: row.map_center_lat === null || row.map_center_lng === null,
  week_start: row.week_start,
  reminder_hour: row.reminder_hour,
  reminders_enabled: row.reminders_enabled,
  eta_messages_enabled: row.eta_messages_enabled,
  arrival_far_metres: row.arrival_far_metres,
  overdue_after_minutes: row.overdue_after_minutes,
  eta_replan_minutes: row.eta_replan_minutes,
  care_plan_weeks_ahead: row.care_plan_weeks_ahead,
});
