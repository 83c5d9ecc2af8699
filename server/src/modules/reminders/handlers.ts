// The reminder emails' unsubscribe link (no login; the signed token names the client). Rate-limited per IP through
// the contract's x-fastify-config.
import { bodyOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { unsubscribe } from './service';

export function remindersHandlers(ctx: AppContext): Handlers {
  return {
    unsubscribeReminders: async (request) => unsubscribe(ctx, bodyOf(request, 'unsubscribeReminders').token),
  };
}
