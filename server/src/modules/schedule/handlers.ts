// HTTP handlers of the practitioners' routes of a day (operationIds in openapi.yaml).
import { callerOf } from '../../auth/access';
import { paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { deleteRoute, listRoutes } from './routes-service';

export function scheduleHandlers(ctx: AppContext): Handlers {
  return {
    listRoutes: async (request) => ({ routes: await listRoutes(ctx, callerOf(request), queryOf(request, 'listRoutes').date) }),
    deleteRoute: async (request, reply) => {
      await deleteRoute(ctx, callerOf(request), paramsOf(request, 'deleteRoute').id);
      return reply.code(204).send();
    },
  };
}
