// The dashboard's server data: one key. It sits under the appointment lists' prefix (as the day's travel warnings
// do), so whatever changes a visit — a move, an arrival time, an applied route, a finished import — refreshes it.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { appointmentQueries } from '../../entities/appointments/queries';
import { fetchDashboard } from './api';

export const dashboardQueries = {
  current: (api: ApiClient) =>
    queryOptions({ queryKey: [...appointmentQueries.lists(), 'dashboard'] as const, queryFn: () => fetchDashboard(api) }),
};
