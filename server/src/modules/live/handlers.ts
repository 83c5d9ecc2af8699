// HTTP handlers of the live desk (operationIds createLiveTicket and streamLiveEvents in openapi.yaml).
import { callerOf } from '../../auth/access';
import { queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { createTicket, openStream } from './service';

export function liveHandlers(ctx: AppContext): Handlers {
  return {
    createLiveTicket: async (request, reply) => reply.code(201).send(await createTicket(ctx, callerOf(request))),
    streamLiveEvents: async (request, reply) => {
      const { ticket } = queryOf(request, 'streamLiveEvents');
      // The answer is written here as the events come, not by Fastify: a refused ticket throws before anything is sent.
      await openStream(ctx, ticket, reply.raw, { 'x-request-id': request.id });
      reply.hijack();
    },
  };
}
