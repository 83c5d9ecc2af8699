// Every module's handlers, merged into one table keyed by operationId.
import type { Handlers } from '../http/contract';
import type { AppContext } from '../http/context';
import { authHandlers } from './auth/handlers';
import type { AuthService } from './auth/service';
import { referenceHandlers } from './reference/handlers';

export function buildHandlers(ctx: AppContext, auth: AuthService): Handlers {
  return {
    ...authHandlers(ctx, auth),
    ...referenceHandlers(ctx),
  };
}
