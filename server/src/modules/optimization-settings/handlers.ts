// Optimisation settings: GET (ADMIN, REGULAR_USER) and PUT (ADMIN) /optimization_settings.
import { callerOf } from '../../auth/access';
import { bodyOf, type Handlers } from '../../http/contract';
import type { AppContext } from '../../http/context';
import { OptimizationSettingsService } from './service';

export function optimizationSettingsHandlers(ctx: AppContext): Handlers {
  const service = new OptimizationSettingsService(ctx);
  return {
    getOptimizationSettings: async (request) => ({ optimization_settings: await service.get(callerOf(request)) }),
    updateOptimizationSettings: async (request) =>
      ({ optimization_settings: await service.update(callerOf(request), bodyOf(request, 'updateOptimizationSettings')) }),
  };
}
