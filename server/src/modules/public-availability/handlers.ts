// The clients' own availability page (no login; see service.ts). Rate-limited per IP through the contract's
// x-fastify-config.
import { bodyOf, queryOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { PublicAvailabilityService } from './service';

export function publicAvailabilityHandlers(ctx: AppContext): Handlers {
  const service = new PublicAvailabilityService(ctx);
  return {
    getPublicAvailability: async (request) => service.get(queryOf(request, 'getPublicAvailability').token),
    updatePublicAvailability: async (request) => {
      const body = bodyOf(request, 'updatePublicAvailability');
      const availability = await service.update(body.token, body.availability);
      return { message: 'Thank you. Your availability has been updated.', availability };
    },
  };
}
