// Practitioners: GET /practitioners/all and PATCH /practitioners/{id} (the colour).
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { PractitionersService } from './service';

export function practitionersHandlers(ctx: AppContext): Handlers {
  const service = new PractitionersService(ctx);
  return {
    listAllPractitioners: async (request) => ({ practitioners: await service.list(callerOf(request)) }),
    updatePractitioner: async (request) => {
      const { color } = bodyOf(request, 'updatePractitioner');
      return { practitioner: await service.setColor(callerOf(request), paramsOf(request, 'updatePractitioner').id, color) };
    },
  };
}
