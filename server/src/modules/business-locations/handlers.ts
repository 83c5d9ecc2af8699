// Business locations: GET /business_locations/all.
import { callerOf } from '../../auth/access';
import type { Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { BusinessLocationsService } from './service';

export function businessLocationsHandlers(ctx: AppContext): Handlers {
  const service = new BusinessLocationsService(ctx);
  return {
    listAllBusinessLocations: async (request) => ({ business_locations: await service.list(callerOf(request)) }),
  };
}
