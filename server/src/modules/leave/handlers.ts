// Leave: GET /practitioner_leave (any role; a practitioner their own), (ADMIN) create, change, remove, and (ADMIN and
// coordinators) "Unavailable from now" today.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { LeaveService } from './service';

export function leaveHandlers(ctx: AppContext): Handlers {
  const service = new LeaveService(ctx);
  return {
    listPractitionerLeave: async (request) => ({ leave: await service.list(callerOf(request), queryOf(request, 'listPractitionerLeave')) }),
    createPractitionerLeave: async (request, reply) =>
      reply.code(201).send({ leave: await service.create(callerOf(request), bodyOf(request, 'createPractitionerLeave')) }),
    markPractitionerUnavailableToday: async (request, reply) =>
      reply.code(201).send({ leave: await service.unavailableToday(callerOf(request), bodyOf(request, 'markPractitionerUnavailableToday')) }),
    updatePractitionerLeave: async (request) => ({
      leave: await service.update(callerOf(request), paramsOf(request, 'updatePractitionerLeave').id, bodyOf(request, 'updatePractitionerLeave')),
    }),
    deletePractitionerLeave: async (request, reply) => {
      await service.delete(callerOf(request), paramsOf(request, 'deletePractitionerLeave').id);
      return reply.code(204).send();
    },
  };
}
