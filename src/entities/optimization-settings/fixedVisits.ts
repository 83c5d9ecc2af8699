// The business's margin before now within which visits stay as they are (Settings → Optimisation), 30 minutes until
// the settings are read.
import { useQuery } from '@tanstack/react-query';
import { useServices } from '../../app/ServicesContext';
import { optimizationSettingsQueries } from './queries';

export const DEFAULT_FIXED_BEFORE_MINUTES = 30;

/** `enabled` false for those who cannot read the settings (and cannot move visits). */
export function useFixedBeforeMinutes(enabled = true): number {
  const { api } = useServices();
  const settings = useQuery({ ...optimizationSettingsQueries.current(api), enabled });
  return settings.data?.fixed_before_minutes ?? DEFAULT_FIXED_BEFORE_MINUTES;
}
