// Travel: POST /travel (any signed-in user; no business data) and GET /appointments/travel (the day's legs and
// travel warnings, a PRACTITIONER's own).
import { callerOf } from '../../auth/access';
import { bodyOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { TravelService } from './measure';
import { osrmFor } from '../schedule';
import { travelWarnings } from './warnings';

export function travelHandlers(ctx: AppContext): Handlers {
  const service = new TravelService(osrmFor(ctx.config), ctx.log);
  return {
    measureTravel: async (request) => {
      const { points, geometry = false } = bodyOf(request, 'measureTravel');
      return service.measure(points, geometry);
    },
    listAppointmentTravel: async (request) => {
      const query = queryOf(request, 'listAppointmentTravel');
      return travelWarnings(ctx, callerOf(request), query.date, query.practitioner_ids);
    },
  };
}
