// Travel: POST /travel (any signed-in user; no business data).
import { bodyOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { TravelService } from './service';

export function travelHandlers(ctx: AppContext): Handlers {
  const service = new TravelService(ctx.config.osrmUrl, ctx.log);
  return {
    measureTravel: async (request) => {
      const { points, geometry = false } = bodyOf(request, 'measureTravel');
      return service.measure(points, geometry);
    },
  };
}
