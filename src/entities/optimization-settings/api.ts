// The optimisation settings' calls: how the business's days are optimised (the defaults until an admin saves them).
import type { ApiClient } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { components, operations } from '../../api/schema';

type Schemas = components['schemas'];
export type OptimizationSettings = Schemas['OptimizationSettings'];
export type OptimizationPreset = Schemas['OptimizationPreset'];
export type OptimizationWeights = Schemas['OptimizationWeights'];
export type OptimizationSettingsChanges = NonNullable<operations['updateOptimizationSettings']['requestBody']>['content']['application/json'];

export const OPTIMIZATION_SETTINGS_SAVE_ERROR = 'An error has occurred. Could not save the optimisation settings.';

export async function fetchOptimizationSettings(api: ApiClient): Promise<OptimizationSettings> {
  const result = await api.GET('/optimization_settings');
  return unwrap(result, 'An error has occurred. Could not load the optimisation settings.').optimization_settings;
}

export async function saveOptimizationSettings(api: ApiClient, changes: OptimizationSettingsChanges): Promise<OptimizationSettings> {
  const result = await api.PUT('/optimization_settings', { body: changes });
  return unwrap(result, OPTIMIZATION_SETTINGS_SAVE_ERROR).optimization_settings;
}
