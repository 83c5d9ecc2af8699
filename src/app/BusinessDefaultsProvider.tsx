// Gives the shared UI (maps, date pickers, week presets) the signed-in user's business defaults from Account settings.
import { useMemo, type ReactNode } from 'react';
import { useAuthSelector } from './ServicesContext';
import { selectUser } from '../machines/auth';
import { BusinessDefaultsContext, SPEC_DEFAULTS, type BusinessDefaults, type WeekStart } from './businessDefaults';

export function BusinessDefaultsProvider({ children }: { children: ReactNode }) {
  const business = useAuthSelector(selectUser)?.business_account;
  const lat = business?.map_center?.lat;
  const lng = business?.map_center?.lng;
  const weekStart = business?.week_start;
  const defaults = useMemo<BusinessDefaults>(() => ({
    mapCenter: lat !== undefined && lng !== undefined ? { lat, lng } : SPEC_DEFAULTS.mapCenter,
    weekStart: weekStart !== undefined && weekStart >= 0 && weekStart <= 6 ? weekStart as WeekStart : SPEC_DEFAULTS.weekStart,
  }), [lat, lng, weekStart]);
  return <BusinessDefaultsContext.Provider value={defaults}>{children}</BusinessDefaultsContext.Provider>;
}
