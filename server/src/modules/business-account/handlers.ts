// Account settings: GET and PATCH /business_account (ADMIN).
import { callerOf } from '../../auth/access';
import { bodyOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { BusinessAccountService } from './service';

export function businessAccountHandlers(ctx: AppContext): Handlers {
  const service = new BusinessAccountService(ctx);
  return {
    getBusinessAccount: async (request) => ({ business_account: await service.get(callerOf(request)) }),
    updateBusinessAccount: async (request) =>
      ({ business_account: await service.update(callerOf(request), bodyOf(request, 'updateBusinessAccount')) }),
  };
}
