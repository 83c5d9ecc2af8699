// Custom locations (ADMIN): GET/POST /custom_locations, PATCH/DELETE /custom_locations/{id}.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { CustomLocationsService } from './service';

export function customLocationsHandlers(ctx: AppContext): Handlers {
  const service = new CustomLocationsService(ctx);
  return {
    listCustomLocations: async (request) => ({ custom_locations: await service.list(callerOf(request)) }),
    createCustomLocation: async (request, reply) =>
      reply.code(201).send({ custom_location: await service.create(callerOf(request), bodyOf(request, 'createCustomLocation')) }),
    updateCustomLocation: async (request) => ({
      custom_location: await service.update(callerOf(request), paramsOf(request, 'updateCustomLocation').id, bodyOf(request, 'updateCustomLocation')),
    }),
    deleteCustomLocation: async (request, reply) => {
      await service.delete(callerOf(request), paramsOf(request, 'deleteCustomLocation').id);
      return reply.code(204).send();
    },
  };
}
