// Subscription info and billing: GET /subscription, POST /subscription/checkout and /subscription/portal (ADMIN, open
// while payment is required), and Stripe's webhook (public, proved by its signature).
import { callerOf } from '../../auth/access';
import type { Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { SubscriptionService } from './service';

declare module 'fastify' {
  interface FastifyRequest {
    /** The body as sent, for operations marked x-raw-body (a webhook's signature covers the exact bytes). */
    rawBody?: string;
  }
}

export function subscriptionHandlers(ctx: AppContext): Handlers {
  const service = new SubscriptionService(ctx);
  return {
    getSubscription: async (request) => ({ subscription: await service.get(callerOf(request)) }),
    startSubscriptionCheckout: async (request) => service.checkout(callerOf(request)),
    openBillingPortal: async (request) => service.portal(callerOf(request)),
    receiveStripeWebhook: async (request) => {
      const signature = request.headers['stripe-signature'];
      const outcome = await service.receiveStripeWebhook(request.rawBody ?? '', typeof signature === 'string' ? signature : undefined);
      return { received: true, outcome };
    },
  };
}
