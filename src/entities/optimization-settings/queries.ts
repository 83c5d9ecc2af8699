// The optimisation settings, one key: the settings page reads them, and so can anything that starts a run.
import { queryOptions } from '@tanstack/react-query';
import type { ApiClient } from '../../api/client';
import { fetchOptimizationSettings } from './api';

export const optimizationSettingsQueries = {
  current: (api: ApiClient) => queryOptions({ queryKey: ['optimization_settings'] as const, queryFn: () => fetchOptimizationSettings(api) }),
};
