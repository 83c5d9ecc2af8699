// Saving the optimisation settings: the saved settings replace the cached ones, and a toast says so; new rules of home
// care have every day's problems checked again (they are read under the appointment lists' key). What the server
// refused is shown by the form, field by field.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../../app/ServicesContext';
import { appointmentQueries } from '../../../entities/appointments/queries';
import { saveOptimizationSettings, type OptimizationSettingsChanges } from '../../../entities/optimization-settings/api';
import { optimizationSettingsQueries } from '../../../entities/optimization-settings/queries';

export const OPTIMIZATION_SETTINGS_SAVED = 'The optimisation settings have been saved.';

/** The settings the rule book reads: a change to one changes what counts as a problem on every day. */
const RULE_FIELDS = ['tolerance_minutes', 'client_gap_minutes', 'availability_mode'] as const;

export function useSaveOptimizationSettings() {
  const { api, flash } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: OptimizationSettingsChanges) => saveOptimizationSettings(api, changes),
    onSuccess: (saved, changes) => {
      queryClient.setQueryData(optimizationSettingsQueries.current(api).queryKey, saved);
      if (RULE_FIELDS.some((field) => field in changes)) void queryClient.invalidateQueries({ queryKey: appointmentQueries.lists() });
      flash.send({ type: 'APPEND', text: OPTIMIZATION_SETTINGS_SAVED });
    },
  });
}
