// The business's own defaults that shared UI needs (Account settings): where a map opens when it has nothing to show,
// and the first day of a week in date pickers and "this week" presets. The layout provides them from the signed-in
// user's business; without a provider (a public page, a test) they are the spec's: Brisbane, and Monday.
import { createContext, useContext } from 'react';
import { DEFAULT_MAP_CENTER, type LatLng } from '../lib/map/mapTypes';

/** 0 = Sunday … 6 = Saturday. */
export type WeekStart = 0 | 1 | 2 | 3 | 4 | 5 | 6;

export interface BusinessDefaults {
  mapCenter: LatLng;
  weekStart: WeekStart;
}

export const SPEC_DEFAULTS: BusinessDefaults = { mapCenter: DEFAULT_MAP_CENTER, weekStart: 1 };

export const BusinessDefaultsContext = createContext<BusinessDefaults>(SPEC_DEFAULTS);

export const useBusinessDefaults = (): BusinessDefaults => useContext(BusinessDefaultsContext);

/** The week (`weekStart` first) holding `day`: the one rule for "a week" in pickers and presets. */
export function weekStartOf<T extends { dayOfWeek: number; subtract(duration: { days: number }): T }>(day: T, weekStart: WeekStart): T {
  // Temporal numbers Monday 1 … Sunday 7; the setting Sunday 0 … Saturday 6.
  const back = (day.dayOfWeek % 7 - weekStart + 7) % 7;
  return day.subtract({ days: back });
}
