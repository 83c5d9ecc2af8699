// Clients: the paginated list, a client's details, availability, pin, tags, preferred and excluded practitioners and
// the availability-request email.
import { callerOf } from '../../auth/access';
import { bodyOf, paramsOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import type { ClientSort } from './repository';
import { ClientsService } from './service';

export function clientsHandlers(ctx: AppContext): Handlers {
  const service = new ClientsService(ctx);
  return {
    listClients: async (request, reply) => {
      const query = queryOf(request, 'listClients');
      const json = await service.listJson(callerOf(request), {
        page: query.page ?? 1,
        perPage: query.per_page ?? 10,
        sort: (query.sort ?? 'name') as ClientSort,
        direction: query.direction ?? 'asc',
        q: query.q,
        tagId: query.tag_id,
        missingAddress: query.missing_address,
      });
      return reply.type('application/json; charset=utf-8').send(json);
    },
    getClient: async (request) => ({ client: await service.get(callerOf(request), paramsOf(request, 'getClient').id) }),
    updateClientAvailability: async (request) => {
      const { availability } = bodyOf(request, 'updateClientAvailability');
      return { client: await service.updateAvailability(callerOf(request), paramsOf(request, 'updateClientAvailability').id, availability) };
    },
    updateClientLocation: async (request) => ({
      client: await service.updateLocation(callerOf(request), paramsOf(request, 'updateClientLocation').id, bodyOf(request, 'updateClientLocation')),
    }),
    updateClientReminders: async (request) => ({
      client: await service.updateReminders(callerOf(request), paramsOf(request, 'updateClientReminders').id, bodyOf(request, 'updateClientReminders').reminders_enabled),
    }),
    updateClientPractitioners: async (request) => {
      const body = bodyOf(request, 'updateClientPractitioners');
      return {
        client: await service.updatePractitioners(callerOf(request), paramsOf(request, 'updateClientPractitioners').id, {
          preferred: body.preferred_practitioner_ids, excluded: body.excluded_practitioner_ids,
        }),
      };
    },
    updateClientTags: async (request) => ({
      tags: await service.updateTags(callerOf(request), paramsOf(request, 'updateClientTags').id, bodyOf(request, 'updateClientTags').tag_ids),
    }),
    sendClientAvailabilityRequest: async (request, reply) => {
      const body = await service.sendAvailabilityRequest(callerOf(request), paramsOf(request, 'sendClientAvailabilityRequest').id);
      return reply.code(202).send(body);
    },
  };
}
