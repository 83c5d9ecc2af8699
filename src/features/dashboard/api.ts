// The dashboard's one call: GET /dashboard, answered per role. A practitioner's day comes as the appointments list
// does, and is put together here the same way (summariesOf) for the run sheet.
import type { ApiClient } from '../../api/client';
import type { components } from '../../api/schema';
import { unwrap } from '../../api/errors';
import { summariesOf, type AppointmentSummary } from '../../entities/appointments/api';

type Schemas = components['schemas'];
export type DashboardOverview = Schemas['DashboardOverview'];
export type DashboardJob = Schemas['DashboardJob'];
export type DashboardWeek = Schemas['DashboardWeek'];
export type DashboardNextVisit = Schemas['DashboardNextVisit'];

export interface Dashboard extends Omit<Schemas['Dashboard'], 'practitioner_day'> {
  practitioner_day: { next_visit: DashboardNextVisit | null; today: AppointmentSummary[] } | null;
}

export const DASHBOARD_LOAD_ERROR = 'Could not load the dashboard.';

export async function fetchDashboard(api: ApiClient): Promise<Dashboard> {
  const body = unwrap(await api.GET('/dashboard'), DASHBOARD_LOAD_ERROR);
  const day = body.practitioner_day;
  return { ...body, practitioner_day: day ? { next_visit: day.next_visit, today: summariesOf(day.today) } : null };
}
