// Practitioners: GET /practitioners/all (pickers, lanes); for an admin, GET /practitioners (the settings page),
// PATCH /practitioners/{id} (working data and colour) and PUT /practitioners/working_hours (hours of several at once).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { PractitionersService } from './service';

export function practitionersHandlers(ctx: AppContext): Handlers {
  const service = new PractitionersService(ctx);
  return {
    listAllPractitioners: async (request) => ({ practitioners: await service.list(callerOf(request)) }),
    listPractitionerSettings: async (request) =>
      ({ practitioners: await service.listSettings(callerOf(request), queryOf(request, 'listPractitionerSettings').active) }),
    updatePractitioner: async (request) => ({
      practitioner: await service.update(callerOf(request), paramsOf(request, 'updatePractitioner').id, bodyOf(request, 'updatePractitioner')),
    }),
    setPractitionersWorkingHours: async (request) => {
      const { practitioner_ids, working_hours, days } = bodyOf(request, 'setPractitionersWorkingHours');
      return service.setWorkingHours(callerOf(request), practitioner_ids, working_hours, days);
    },
  };
}
