// Saving the optimisation settings: the saved settings replace the cached ones, and a toast says so. What the server
// refused is shown by the form, field by field.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { saveOptimizationSettings, type OptimizationSettingsChanges } from './api';
import { optimizationSettingsQueries } from './queries';

export const OPTIMIZATION_SETTINGS_SAVED = 'The optimisation settings have been saved.';

export function useSaveOptimizationSettings() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: OptimizationSettingsChanges) => saveOptimizationSettings(api, changes),
    onSuccess: (saved) => {
      queryClient.setQueryData(optimizationSettingsQueries.current(api).queryKey, saved);
      flash.send({ type: 'APPEND', text: OPTIMIZATION_SETTINGS_SAVED });
    },
  });
}
