// HTTP handler of the nearby search (operationId searchNearby in openapi.yaml): ADMIN and REGULAR_USER.
import { callerOf } from '../../auth/access';
import { queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { searchNearby } from './service';

export function nearbyHandlers(ctx: AppContext): Handlers {
  return {
    searchNearby: async (request) => searchNearby(ctx, callerOf(request), queryOf(request, 'searchNearby')),
  };
}
