// HTTP handler of the dashboard (operationId getDashboard in openapi.yaml): any role, answered per role.
import { callerOf } from '../../auth/access';
import { queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { DashboardService } from './service';

export function dashboardHandlers(ctx: AppContext): Handlers {
  const service = new DashboardService(ctx);
  return {
    getDashboard: async (request) => service.dashboard(callerOf(request), queryOf(request, 'getDashboard').date),
  };
}
